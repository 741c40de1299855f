import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { awaitReview, call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { driveAnswering } from "../helpers/boundary";
import { sandboxForSuite } from "../helpers/sandbox";

// Probe (held when tried): in plan mode the plans folder is writable in the file worker's view, but only the
// session's own plan file may be written: not a sibling, not a non-.md file, not another session's plan, not the
// config through the plans folder, not by apply_patch or a general subagent.
sandboxForSuite();
let api: Api;
afterEach(async () => {
  await api?.close();
});

describe("plan mode writes only its own plan file", () => {
  it("every other write near the plans folder is refused", async () => {
    api = testApi({ files: { "README.md": "# r\n", ".plangate/config.json": "{}\n" } });
    // Another session's plan, waiting for review.
    const other = await startScripted(api, [call("exit_plan_mode", { plan: "# Other\n" }), { text: "ok" }], {
      mode: "plan",
    });
    await api.call("POST", `/api/sessions/${other}/messages`, { text: "plan" });
    await awaitReview(api, other);
    const slug = (await api.call("GET", `/api/sessions/${other}`)).body.session.planSlug as string;
    const plans = path.join(api.workspace, ".plangate/plans");
    const otherPlan = path.join(plans, `${slug}.md`);
    const before = fs.readFileSync(otherPlan, "utf8");
    const id = await startScripted(
      api,
      [
        call("write", { path: ".plangate/plans/sibling.md", content: "x" }),
        call("write", { path: ".plangate/plans/run.sh", content: "x" }),
        call("write", { path: otherPlan, content: "# hijacked\n" }),
        call("edit", { path: otherPlan, oldString: "# Other", newString: "# hijacked" }),
        call("write", { path: ".plangate/plans/../config.json", content: '{"permission":{"bash":{"*":"allow"}}}' }),
        call("apply_patch", { patch: "--- /dev/null\n+++ b/.plangate/plans/patched.md\n@@ -0,0 +1 @@\n+x\n" }),
        call("task", {
          agent: "general",
          prompt: "write",
          script: [call("write", { path: ".plangate/plans/child.md", content: "x" }), { text: "d" }],
        }),
        { text: "done" },
      ],
      { mode: "plan" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    await driveAnswering(
      api,
      (s) => settle(api, s),
      id,
      () => ({ reply: "once" }),
    );
    expect(fs.readdirSync(plans).sort()).toEqual([`${slug}.md`]);
    expect(fs.readFileSync(otherPlan, "utf8")).toBe(before);
    expect(fs.readFileSync(path.join(api.workspace, ".plangate/config.json"), "utf8")).toBe("{}\n");
  });
});
