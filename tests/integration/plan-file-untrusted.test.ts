import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { awaitReview, call, results, settle, startScripted, testApi, type Api } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { sandboxForSuite } from "../helpers/sandbox";

/*
 * Issue 41, class 5, beyond plan-file-fifo-attack.test.ts: enter_plan_mode reads the plan file through the one
 * untrusted reader, whatever the agent put at its path — a link leading out of the workspace (never read through,
 * even to say "it holds a plan") or a file larger than the reader's limit (never read whole).
 */
const sandbox = sandboxForSuite();
let api: Api;
afterEach(async () => {
  await api?.close();
});

describe.skipIf(!sandbox.available)("enter_plan_mode reads the plan file as untrusted", () => {
  it.each([
    ["a link to a file outside the workspace", (outside: string) => `ln -sf '${outside}' "$f"`, "is a link"],
    ["a file of 64 MiB", () => `truncate -s 64M "$f"`, "is larger than 256 KiB"],
  ])("%s at the plan path is refused, not read", async (_name, plant, refusal) => {
    api = testApi({
      env: { PLANGATE_AUTO_GATE: "open" },
      files: { "README.md": "# demo\n", ".plangate/config.json": JSON.stringify({ plansDirectory: "docs/plans" }) },
    });
    const outside = path.join(path.dirname(api.workspace), "secret.txt");
    fs.writeFileSync(outside, "# Plan\n\nSECRET\n");
    const id = await startScripted(
      api,
      [
        call("enter_plan_mode"),
        exitWith("# Plan\n\n1. Nothing much.\n"),
        call("bash", { command: `for f in docs/plans/*.md; do rm -f "$f"; ${plant(outside)}; done` }),
        call("enter_plan_mode"),
        { text: "done" },
      ],
      { mode: "auto" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan then go" });
    const reviewId = await awaitReview(api, id);
    expect((await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" })).status).toBe(200);
    const { events } = await settle(api, id);
    const entered = results(events).filter((r) => r.tool === "enter_plan_mode");
    expect(entered.length).toBe(2);
    const output = String(entered[1]?.output);
    expect(output).toContain(refusal);
    expect(output).not.toContain("already holds a plan");
  });
});
