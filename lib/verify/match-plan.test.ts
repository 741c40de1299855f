import { describe, expect, it } from "vitest";
import { matchPlan, type Change } from "./match-plan";
import { planItems } from "./plan-items";

const change = (path: string, patch = "+x", via: Change["via"] = ["tool"]): Change => ({
  path,
  status: "modified",
  patch,
  via,
});
const PLAN =
  "# Plan\n\n1. Add a done flag in src/todo.ts\n2. Expose it in src/server.ts and src/routes.ts\n3. Write a test\n4. Document the pagination cursor\n";

const PASSED = { command: "npm test", exitCode: 0, timedOut: false, outputTail: "ok" };

describe("matchPlan", () => {
  // With the verify command passing after the change; without one the changed items are only "unverified".
  it.each<[string, Change[], { ok: number; verdicts: string[]; unplanned: string[]; status: string }]>([
    [
      "every item done",
      [
        change("src/todo.ts"),
        change("src/server.ts"),
        change("src/routes.ts"),
        change("test/todo.test.ts"),
        change("docs/api.md", "+The pagination cursor is opaque"),
      ],
      { ok: 4, verdicts: ["done", "done", "done", "done"], unplanned: [], status: "pass" },
    ],
    [
      "a file of step 2 untouched: deviated; no test: missing",
      [change("src/todo.ts"), change("src/server.ts"), change("docs/api.md", "+pagination cursor")],
      { ok: 2, verdicts: ["done", "deviated", "missing", "done"], unplanned: [], status: "fail" },
    ],
    [
      "an unplanned file is listed, not failing; plan files are ignored",
      [
        change("src/todo.ts"),
        change("src/server.ts"),
        change("src/routes.ts"),
        change("src/todo.spec.ts"),
        change("docs/x.md", "+pagination cursor docs"),
        change("scripts/deploy.sh"),
        change(".plangate/plans/p.md"),
      ],
      { ok: 4, verdicts: ["done", "done", "done", "done"], unplanned: ["scripts/deploy.sh"], status: "pass" },
    ],
    [
      "nothing changed",
      [],
      { ok: 0, verdicts: ["missing", "missing", "missing", "missing"], unplanned: [], status: "fail" },
    ],
  ])("%s", (_name, changes, want) => {
    const r = matchPlan(planItems(PLAN), changes, PASSED);
    expect(r.items.map((i) => i.status)).toEqual(want.verdicts);
    expect(r.items.filter((i) => i.status === "done")).toHaveLength(want.ok);
    expect(r.unplanned).toEqual(want.unplanned);
    expect(r.status).toBe(want.status);
    // The same changes with nothing to check them: what changed is "unverified", never done, never a pass.
    const unchecked = matchPlan(planItems(PLAN), changes, null);
    expect(unchecked.items.map((i) => i.status)).toEqual(want.verdicts.map((v) => (v === "done" ? "unverified" : v)));
    expect(unchecked.status).toBe(want.status === "pass" ? "unverified" : want.status);
  });

  it("a stub is only changed: without a check it is unverified, a failing check fails it, a passing one passes it", () => {
    const items = planItems("1. Add the function `countOpen` to `src/todo.ts`\n");
    const stub = [change("src/todo.ts", "+export function countOpen(): void {}")];
    const none = matchPlan(items, stub, null);
    expect([none.status, none.items[0]?.status]).toEqual(["unverified", "unverified"]);
    expect(none.summary).toBe(
      "Unverified: 0/1 checkable plan items done and checked; 1 changed, not checked; no verify command (.plangate/config.json verify.command)",
    );
    const declined = matchPlan(items, stub, { ...PASSED, exitCode: null, notRun: "the person declined to run it" });
    expect([declined.status, declined.items[0]?.status]).toEqual(["unverified", "unverified"]);
    const failed = matchPlan(items, stub, { ...PASSED, exitCode: 1 });
    expect([failed.status, failed.items[0]?.status]).toEqual(["fail", "failing"]);
    expect(failed.items[0]?.reason).toBe("every file it names changed; the verify command failed after the change");
    const passed = matchPlan(items, stub, PASSED);
    expect([passed.status, passed.items[0]?.status]).toEqual(["pass", "done"]);
  });

  it("a failing or timed-out test run fails an otherwise complete plan and says why", () => {
    const all = [
      change("src/todo.ts"),
      change("src/server.ts"),
      change("src/routes.ts"),
      change("test/a.test.ts"),
      change("d.md", "+pagination cursor"),
    ];
    const failed = matchPlan(planItems(PLAN), all, {
      command: "npm test",
      exitCode: 1,
      timedOut: false,
      outputTail: "1 failing",
    });
    expect(failed.status).toBe("fail");
    expect(failed.items.map((i) => i.status)).toEqual(["failing", "failing", "failing", "failing"]);
    expect(failed.summary).toContain("verify command failed (exit 1)");
    expect(
      matchPlan(planItems(PLAN), all, { command: "npm test", exitCode: null, timedOut: true, outputTail: "" }).summary,
    ).toContain("timed out");
    expect(
      matchPlan(planItems(PLAN), all, { command: "npm test", exitCode: 0, timedOut: false, outputTail: "ok" }).status,
    ).toBe("pass");
  });

  it("evidence says when a change was made outside the tools", () => {
    const r = matchPlan(planItems("1. edit src/todo.ts"), [change("src/todo.ts", "+x", ["git"])], null);
    expect(r.items[0]?.evidence).toEqual(["src/todo.ts (modified, outside the tools)"]);
  });
});

describe("not done versus not checkable", () => {
  it("an activity step is not checkable and fails nothing; a change step with no trace is not done", () => {
    const items = [
      { id: 1, text: "Run the test suite", files: [], source: "step" as const },
      { id: 2, text: "Add the pagination helper", files: [], source: "step" as const },
    ];
    const report = matchPlan(items, [], { command: "npm test", exitCode: 0, timedOut: false, outputTail: "" });
    expect(report.items.map((i) => i.status)).toEqual(["unchecked", "missing"]);
    expect(report.summary).toContain("not done: Add the pagination helper");
    expect(report.summary).toContain("1 not checkable");
    // Nothing was checked: no verify command ran, so not a pass either.
    expect(matchPlan([items[0]!], [], null).status).toBe("unverified");
    expect(matchPlan([items[0]!], [], PASSED).status).toBe("pass");
  });
});
