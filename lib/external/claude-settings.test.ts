import { describe, expect, it } from "vitest";
import { plangatePlanHook, withPlangateHook } from "./claude-settings";

const command = "node '/opt/plangate/dist/cli/plangate.mjs' hook claude-code --url 'http://127.0.0.1:3000'";
const theirs = { matcher: "Bash", hooks: [{ type: "command", command: "./lint.sh" }] };

describe("withPlangateHook", () => {
  it.each([
    [
      "empty settings",
      {},
      {
        hooks: {
          PermissionRequest: [{ matcher: "ExitPlanMode", hooks: [{ type: "command", command, timeout: 3600 }] }],
        },
      },
    ],
    [
      "keeps other keys and hooks",
      {
        model: "opus",
        permissions: { allow: ["Bash(npm test:*)"] },
        hooks: { PermissionRequest: [theirs], Stop: [{ hooks: [] }] },
      },
      {
        model: "opus",
        permissions: { allow: ["Bash(npm test:*)"] },
        hooks: {
          PermissionRequest: [
            theirs,
            { matcher: "ExitPlanMode", hooks: [{ type: "command", command, timeout: 3600 }] },
          ],
          Stop: [{ hooks: [] }],
        },
      },
    ],
  ])("%s", (_name, before, after) => {
    expect(withPlangateHook(before, { command, timeoutSec: 3600, asks: false })).toEqual(after);
  });

  it("replaces a hook written before the command was quoted word by word", () => {
    const old = {
      matcher: "ExitPlanMode",
      hooks: [
        {
          type: "command",
          command: 'node "/opt/plangate/bin/plangate.mjs" hook claude-code --url http://127.0.0.1:3000',
          timeout: 60,
        },
      ],
    };
    expect(
      withPlangateHook({ hooks: { PermissionRequest: [theirs, old] } }, { command, timeoutSec: 60, asks: false }).hooks,
    ).toEqual({
      PermissionRequest: [theirs, { matcher: "ExitPlanMode", hooks: [{ type: "command", command, timeout: 60 }] }],
    });
  });

  it("connecting twice replaces the hook (a new URL), removing takes out only Plangate's", () => {
    const once = withPlangateHook(
      { hooks: { PermissionRequest: [theirs] } },
      { command, timeoutSec: 3600, asks: false },
    );
    const moved = command.replace("3000", "4000");
    const twice = withPlangateHook(once, { command: moved, timeoutSec: 600, asks: false });
    expect(twice.hooks).toEqual({
      PermissionRequest: [
        theirs,
        { matcher: "ExitPlanMode", hooks: [{ type: "command", command: moved, timeout: 600 }] },
      ],
    });
    expect(withPlangateHook(twice, { command: moved, timeoutSec: 600, asks: false, remove: true })).toEqual({
      hooks: { PermissionRequest: [theirs] },
    });
    expect(withPlangateHook(once, { command, timeoutSec: 1, asks: false, remove: true }).hooks).toEqual({
      PermissionRequest: [theirs],
    });
    expect(
      withPlangateHook(withPlangateHook({}, { command, timeoutSec: 60, asks: false }), {
        command,
        timeoutSec: 60,
        asks: false,
        remove: true,
      }),
    ).toEqual({});
  });
});

describe("plangatePlanHook", () => {
  const ours = { type: "command", command, timeout: 60 };
  it.each([
    ["no settings", {}, undefined],
    ["someone else's hooks only", { hooks: { PermissionRequest: [theirs] } }, undefined],
    [
      "Plangate's command on another matcher",
      { hooks: { PermissionRequest: [{ matcher: "Bash", hooks: [ours] }] } },
      undefined,
    ],
    [
      "a PermissionRequest that is not a list",
      { hooks: { PermissionRequest: { matcher: "ExitPlanMode" } } },
      undefined,
    ],
    [
      "Plangate's ExitPlanMode hook",
      withPlangateHook({ hooks: { PermissionRequest: [theirs] } }, { command, timeoutSec: 60, asks: true }),
      ours,
    ],
  ])("%s", (_, settings, want) => {
    expect(plangatePlanHook(settings)).toEqual(want);
  });
});
