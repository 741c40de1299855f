import { z } from "zod";
import type { Change, ItemVerdict, TestRun, VerificationReport } from "./match-plan";
import type { PlanItem } from "./plan-items";

const PATCH_BUDGET = 24_000;

/** Pure: what the verifier model reads. It has no tools: the evidence it may cite is what it is shown. */
export function graderPrompt(
  items: PlanItem[],
  changes: Change[],
  test: TestRun | null,
): { system: string; user: string } {
  let budget = PATCH_BUDGET;
  const files = changes.map((c) => {
    const patch = c.patch.slice(0, Math.max(0, budget));
    budget -= patch.length;
    return `### ${c.path} (${c.status}${c.via.includes("tool") ? "" : ", outside the agent's tools"})\n${patch || "(no patch shown)"}`;
  });
  return {
    system:
      "You verify finished work against the plan a person approved. Read-only: you cannot run or change anything. " +
      'For every plan item decide "done" (the changes carry it out), "deviated" (partly, or differently than planned) or "missing", ' +
      "and cite the files and hunks that show it. Answer with JSON only: " +
      '{"items":[{"id":1,"status":"done","evidence":["src/a.ts: adds the flag"],"reason":"…"}]}',
    user: [
      "## Plan items",
      ...items.map((i) => `${i.id}. ${i.text}`),
      "",
      "## Changes since the approval",
      ...(files.length ? files : ["(no file changed)"]),
      "",
      "## Test command",
      test
        ? `\`${test.command}\`: ${test.timedOut ? "timed out" : `exit ${test.exitCode}`}\n${test.outputTail.slice(-2000)}`
        : "(none configured)",
    ].join("\n"),
  };
}

const answer = z.object({
  items: z.array(
    z.object({
      id: z.number().int(),
      status: z.enum(["done", "deviated", "missing"]),
      evidence: z.array(z.string()).default([]),
      reason: z.string().default(""),
    }),
  ),
});

/**
 * Pure: the model's grades laid over the deterministic report. Every item must be graded exactly once, or the
 * answer is not used (null) and the deterministic verdicts stand. Unplanned changes and the test run are facts,
 * not grades: they come from the report.
 */
export function applyModelGrades(report: VerificationReport, text: string): VerificationReport | null {
  const json = /\{[\s\S]*\}/.exec(text)?.[0];
  if (!json) return null;
  let parsed: z.infer<typeof answer>;
  try {
    parsed = answer.parse(JSON.parse(json));
  } catch {
    return null;
  }
  const byId = new Map(parsed.items.map((i) => [i.id, i]));
  if (byId.size !== report.items.length || report.items.some((i) => !byId.has(i.id))) return null;
  const items: ItemVerdict[] = report.items.map((i) => {
    const g = byId.get(i.id)!;
    return {
      id: i.id,
      text: i.text,
      status: g.status,
      evidence: g.evidence.slice(0, 10),
      reason: g.reason || `graded ${g.status} by the verifier model`,
    };
  });
  const failing = items.filter((i) => i.status !== "done");
  const status = failing.length === 0 && (report.test?.passed ?? true) ? "pass" : "fail";
  const summary = [
    `${items.length - failing.length}/${items.length} plan items done`,
    ...failing.map((i) => `${i.status}: ${i.text}`),
    ...(report.unplanned.length ? [`unplanned: ${report.unplanned.join(", ")}`] : []),
    ...(report.test ? [report.test.passed ? "test command passed" : "test command failed"] : []),
  ].join("; ");
  return { ...report, items, status, method: "model", summary: `${status === "pass" ? "Pass" : "Fail"}: ${summary}` };
}
