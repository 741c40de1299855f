import { describe, expect, it } from "vitest";
import { matchPlan } from "./match-plan";
import { applyModelGrades, graderPrompt } from "./model-grades";
import { planItems } from "./plan-items";

const items = planItems("1. Add a flag in src/a.ts\n2. Write docs\n");
const base = matchPlan(
  items,
  [
    { path: "src/a.ts", status: "modified", patch: "+flag", via: ["tool"] },
    { path: "x.sh", status: "added", patch: "+x", via: ["git"] },
  ],
  null,
);

const grades = (a: object, b: object) =>
  JSON.stringify({
    items: [
      { id: 1, ...a },
      { id: 2, ...b },
    ],
  });

describe("applyModelGrades", () => {
  it("lays valid grades over the report: statuses and quoted lines from the model, unplanned from the facts", () => {
    const text = `Here you go:\n\`\`\`json\n${grades(
      { status: "done", quotes: [{ file: "src/a.ts", line: "flag" }] },
      { status: "deviated", reason: "docs in a code comment" },
    )}\n\`\`\``;
    const r = applyModelGrades(base, text);
    expect(r).toMatchObject({ method: "model", status: "fail", unplanned: ["x.sh"] });
    expect(r?.items.map((i) => [i.status, i.evidence, i.reason])).toEqual([
      ["done", ["src/a.ts: flag"], "graded done by the verifier model"],
      ["deviated", [], "docs in a code comment"],
    ]);
    expect(r?.summary).toBe(
      "Fail: 1/2 checkable plan items done and checked; deviated: Write docs; unplanned: x.sh; no verify command (.plangate/config.json verify.command)",
    );
  });

  // The model's answer is untrusted: a "done" counts as checked only when it quotes a line the changes really show.
  it.each<[string, object, string]>([
    ["no quote", { status: "done", evidence: ["src/a.ts adds the flag"] }, "unverified"],
    [
      "a quote of a line that is not in the diff",
      { status: "done", quotes: [{ file: "src/a.ts", line: "return 1;" }] },
      "unverified",
    ],
    [
      "a real line quoted from another file",
      { status: "done", quotes: [{ file: "src/b.ts", line: "flag" }] },
      "unverified",
    ],
    ["an empty quote", { status: "done", quotes: [{ file: "src/a.ts", line: "  " }] }, "unverified"],
    ["a real line of the diff", { status: "done", quotes: [{ file: "./src/a.ts", line: "  flag " }] }, "done"],
  ])("a done with %s → %s", (_name, first, want) => {
    const r = applyModelGrades(base, grades(first, { status: "done", quotes: [{ file: "x.sh", line: "x" }] }));
    expect(r?.items[0]?.status).toBe(want);
    expect(r?.status).toBe(want === "done" ? "pass" : "unverified");
  });

  it("a done without a quote is still done when the verify command passed after the change", () => {
    const passed = matchPlan(items, base.changes, {
      command: "npm test",
      exitCode: 0,
      timedOut: false,
      outputTail: "",
    });
    const r = applyModelGrades(passed, grades({ status: "done" }, { status: "done" }));
    expect(r?.items.map((i) => i.status)).toEqual(["done", "done"]);
    expect(r?.status).toBe("pass");
  });

  it("a verify command the person declined neither passes nor fails the model's grades", () => {
    const declined = matchPlan(items, base.changes, {
      command: "npm test",
      exitCode: null,
      timedOut: false,
      outputTail: "",
      notRun: "the person declined to run it",
    });
    const quoted = { status: "done", quotes: [{ file: "src/a.ts", line: "flag" }] };
    expect(
      applyModelGrades(declined, grades(quoted, { status: "done", quotes: [{ file: "x.sh", line: "x" }] }))?.status,
    ).toBe("pass");
  });

  it.each([
    ["no JSON", "All good!"],
    ["broken JSON", '{"items": [ {"id": 1, '],
    ["an item left out", '{"items":[{"id":1,"status":"done"}]}'],
    ["an unknown status", '{"items":[{"id":1,"status":"great"},{"id":2,"status":"done"}]}'],
    ["an id that is not a plan item", '{"items":[{"id":1,"status":"done"},{"id":7,"status":"done"}]}'],
  ])("an unusable answer (%s) keeps the deterministic verdict", (_name, text) => {
    expect(applyModelGrades(base, text)).toBeNull();
  });

  it("a failing test fails the report whatever the model says", () => {
    const withTest = matchPlan(items, [], { command: "npm test", exitCode: 1, timedOut: false, outputTail: "boom" });
    const quoted = { status: "done", quotes: [{ file: "src/a.ts", line: "flag" }] };
    const r = applyModelGrades(withTest, grades(quoted, quoted));
    expect(r?.status).toBe("fail");
  });
});

describe("graderPrompt", () => {
  it("lists the items, the changes (marking those made outside the tools) and the test run", () => {
    const p = graderPrompt(items, [{ path: "x.sh", status: "added", patch: "+x", via: ["git"] }], {
      command: "npm test",
      exitCode: 0,
      timedOut: false,
      outputTail: "ok",
    });
    expect(p.user).toContain("1. Add a flag in src/a.ts\n2. Write docs");
    expect(p.user).toContain("### x.sh (added, outside the agent's tools)\n+x");
    expect(p.user).toContain("`npm test`: exit 0\nok");
    expect(p.system).toContain("Answer with JSON only");
  });
});
