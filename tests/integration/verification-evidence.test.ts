import { afterEach, describe, expect, it } from "vitest";
import { call, settle, startScripted, testApi, trustWorkspaceConfig, type Api } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { getSession } from "../../lib/session/get-session";
import { readEvents } from "../../lib/db/session-log/read-events";
import { SAMPLE_FILES } from "../../lib/workspace/ensure-sample-workspace";
import { nodeTestLine } from "../helpers/node-test-output";
import { waitFor } from "../helpers/poll";

// Issue 42, point 5: "passed" only when something checked the work. The file named by the plan changing is not
// evidence that it works: `export function countOpen() {}` changes src/todo.js too. The sample project (the
// offline demo's) is the workspace: its verify command `node --test` runs its own tests, in the sandbox.
let api: Api;
afterEach(async () => {
  await api?.close();
});

const PLAN = "# Plan: count the open todos\n\n1. Add the function `countOpen` to `src/todo.js`\n";
const STUB = `${SAMPLE_FILES["src/todo.js"]}\nexport function countOpen() {}\n`;
const REAL = `${SAMPLE_FILES["src/todo.js"]}\nexport function countOpen() {\n  return todos.filter((t) => !t.done).length;\n}\n`;

type Report = {
  status: string;
  items: { text: string; status: string; reason: string }[];
  test: { passed: boolean; outputTail: string; command: string } | null;
  summary: string;
};

/** The sample project, with or without its verify command; a config it has is trusted, as a person would. */
async function sample(withVerify: boolean): Promise<Api> {
  const files = { ...SAMPLE_FILES };
  if (!withVerify) delete files[".plangate/config.json"];
  const a = testApi({ files });
  if (withVerify) await trustWorkspaceConfig(a, a.workspace);
  return a;
}

/** Plans, is approved, writes src/todo.js as given, and returns the check made when the turn ended. */
async function carryOut(content: string, allowVerify: boolean): Promise<{ id: string; report: Report }> {
  const write = call("write", { path: "src/todo.js", content });
  const id = await startScripted(api, [exitWith(PLAN), write, { text: "finished" }], { mode: "plan" });
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "count the open todos" });
  expect((await settle(api, id)).status).toBe("awaiting_review");
  const review = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id as string;
  const decided = await api.call("POST", `/api/reviews/${review}/decision`, {
    decision: "approve",
    mode: "acceptEdits",
  });
  expect(decided.status).toBe(200);
  if (allowVerify) {
    // The verify command still waits for a person: exactly this command, once.
    const ask = await waitFor(
      "the verify command's ask",
      async () =>
        (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions.find(
          (p: { tool: string }) => p.tool === "verify",
        ) as { id: string; patterns: string[] } | undefined,
      30_000,
    );
    expect(ask.patterns).toEqual(["node --test"]);
    expect((await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" })).status).toBe(200);
  }
  const verification = await waitFor(
    "the verification",
    async () => (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications[0],
    60_000,
  );
  const completed = (await readEvents(api.t.db, id)).filter((e) => e.type === "verification.completed");
  expect(completed.map((e) => e.payload.status)).toEqual([verification.report.status]);
  expect(verification.status).toBe(verification.report.status);
  return { id, report: verification.report as Report };
}

describe("verification: done only when something checked the work", () => {
  it("a stub and no verify command: unverified (changed, not checked), never passed", async () => {
    api = await sample(false);
    const { id, report } = await carryOut(STUB, false);
    expect(report.status).toBe("unverified");
    expect(report.items.map((i) => i.status)).toEqual(["unverified"]);
    expect(report.items[0]?.reason).toContain("every file it names changed");
    expect(report.test).toBeNull();
    expect(report.summary).toMatch(/^Unverified: 0\/1 checkable plan items done and checked; 1 changed, not checked/);
    expect(report.summary).toContain("no verify command");
    // The session, its history and the /verify command say the same.
    expect((await getSession(api.t.db, id)).state.verification).toBe("unverified");
    const { history } = (await api.call("GET", `/api/sessions/${id}/history`)).body;
    expect(history.plans.at(-1).verification).toBe("changed, not checked");
    const again = await api.call("POST", `/api/sessions/${id}/messages`, { text: "/verify" });
    expect(again.body.command.outcome).toBe("unverified");
  });

  it("a stub and the sample's verify command: its tests run in the sandbox and fail, so the check fails", async () => {
    api = await sample(true);
    const { report } = await carryOut(STUB, true);
    expect(report.status).toBe("fail");
    expect(report.items.map((i) => i.status)).toEqual(["failing"]);
    expect(report.items[0]?.reason).toContain("the verify command failed after the change");
    expect(report.test).toMatchObject({ command: "node --test", passed: false });
    expect(report.test?.outputTail).toMatch(nodeTestLine("countOpen counts the todos not done", false));
    expect(report.summary).toContain("verify command failed (exit 1)");
  });

  it("a real implementation and the sample's verify command: its tests pass, so the item is done and the check passes", async () => {
    api = await sample(true);
    const { report } = await carryOut(REAL, true);
    expect(report.test).toMatchObject({ command: "node --test", passed: true });
    expect(report.test?.outputTail).toMatch(nodeTestLine("countOpen counts the todos not done", true));
    expect(report.items.map((i) => i.status)).toEqual(["done"]);
    expect(report.items[0]?.reason).toContain("the verify command passed after the change");
    expect(report.status).toBe("pass");
  });
});
