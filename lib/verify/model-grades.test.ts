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

describe("applyModelGrades", () => {
  it("lays valid grades over the report: statuses and evidence from the model, unplanned from the facts", () => {
    const text =
      'Here you go:\n```json\n{"items":[{"id":1,"status":"done","evidence":["src/a.ts adds the flag"]},{"id":2,"status":"deviated","evidence":[],"reason":"docs in a code comment"}]}\n```';
    const r = applyModelGrades(base, text);
    expect(r).toMatchObject({ method: "model", status: "fail", unplanned: ["x.sh"] });
    expect(r?.items.map((i) => [i.status, i.evidence, i.reason])).toEqual([
      ["done", ["src/a.ts adds the flag"], "graded done by the verifier model"],
      ["deviated", [], "docs in a code comment"],
    ]);
    expect(r?.summary).toBe("Fail: 1/2 plan items done; deviated: Write docs; unplanned: x.sh");
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
    const r = applyModelGrades(withTest, '{"items":[{"id":1,"status":"done"},{"id":2,"status":"done"}]}');
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
