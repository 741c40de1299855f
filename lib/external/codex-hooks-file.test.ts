import { describe, expect, it } from "vitest";
import { codexHookHash, plangateHookStates, withCodexHooks } from "./codex-hooks-file";

const ours = "node '/opt/p/plangate.mjs' hook codex --url 'http://127.0.0.1:3000' '--deadline' '3540'";
const theirs = { hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] } };

describe("Codex's hooks file and its trust", () => {
  it("hashes a hook as Codex 0.171 does (the value its hooks/list reported for this hook)", () => {
    const handler = { type: "command", command: "node /tmp/research-codex/hook.mjs Stop", timeout: 3600 };
    expect(codexHookHash("Stop", {}, handler)).toBe(
      "sha256:68a9780207a53bae20ce459214620aa02a3656742ae783edfdce7f4e5ef0e9bf",
    );
    // A Stop group's matcher is not part of its identity; a PermissionRequest's is; the default timeout is 600.
    expect(codexHookHash("Stop", { matcher: "x" }, handler)).toBe(codexHookHash("Stop", {}, handler));
    expect(codexHookHash("PermissionRequest", { matcher: "Bash" }, handler)).not.toBe(
      codexHookHash("PermissionRequest", {}, handler),
    );
    expect(codexHookHash("Stop", {}, { command: "x" })).toBe(codexHookHash("Stop", {}, { command: "x", timeout: 600 }));
  });

  it("adds Plangate's hooks after the others (theirs keep their places), replaces them, and takes them out", () => {
    const once = withCodexHooks(theirs, { command: ours, timeoutSec: 3600, asks: true });
    expect(once.hooks?.Stop).toEqual([
      theirs.hooks.Stop[0],
      { hooks: [{ type: "command", command: ours, timeout: 3600 }] },
    ]);
    expect(once.hooks?.PermissionRequest).toEqual([
      { matcher: "Bash", hooks: [{ type: "command", command: ours, timeout: 3600 }] },
    ]);
    const twice = withCodexHooks(once, { command: ours, timeoutSec: 60, asks: false });
    expect(twice.hooks?.Stop).toHaveLength(2);
    expect(twice.hooks?.PermissionRequest).toBeUndefined();
    expect(withCodexHooks(twice, { command: ours, timeoutSec: 60, asks: false, remove: true })).toEqual(theirs);
    expect(plangateHookStates(once, "/h/hooks.json").map((s) => s.key)).toEqual([
      "/h/hooks.json:permission_request:0:0",
      "/h/hooks.json:stop:1:0",
    ]);
  });
});
