import { z } from "zod";
import type { Change, ItemVerdict, TestRun, VerificationReport } from "./match-plan";
import { checkedByTests, reportStatus, summarise } from "./checked-verdicts";
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
      'For every plan item decide "done" (the changes carry out its behaviour, not only its shape: a stub is not done), ' +
      '"deviated" (partly, or differently than planned) or "missing". For "done", quote the changed lines you judged, ' +
      "each exactly as one line of the diff shows it (without its +): a done without a quote of the diff counts as not checked. " +
      "Answer with JSON only: " +
      '{"items":[{"id":1,"status":"done","quotes":[{"file":"src/a.ts","line":"return todos.filter((t) => !t.done).length;"}],"reason":"…"}]}',
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
      quotes: z.array(z.object({ file: z.string(), line: z.string() })).default([]),
      reason: z.string().default(""),
    }),
  ),
});

/** The lines of a file's diff as written (without the +, - or space that marks them), trimmed. */
function diffLines(patch: string): Set<string> {
  const out = new Set<string>();
  for (const l of patch.split("\n")) {
    if (/^(\+\+\+|---|@@|diff |index )/.test(l)) continue;
    const line = (/^[+\- ]/.test(l) ? l.slice(1) : l).trim();
    if (line) out.add(line);
  }
  return out;
}

type Quote = { file: string; line: string };

/** Pure: the quotes that are real lines of the named file's diff (the model's words are untrusted: checked here). */
function realQuotes(quotes: Quote[], changes: Change[]): Quote[] {
  const byFile = new Map(changes.map((c) => [c.path, diffLines(c.patch)]));
  return quotes
    .map((q) => ({ file: q.file.replace(/^\.\//, ""), line: q.line.trim() }))
    .filter((q) => q.line.length > 0 && byFile.get(q.file)?.has(q.line) === true)
    .slice(0, 10);
}

/**
 * Pure: the model's grades laid over the deterministic report. Every item must be graded exactly once, or the
 * answer is not used (null) and the deterministic verdicts stand. A "done" counts as checked only with a quote of
 * a line the changes really show; without one the item is "unverified" (unless the verify command then passed).
 * Unplanned changes and the test run are facts, not grades: they come from the report.
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
  const graded: ItemVerdict[] = report.items.map((i) => {
    const g = byId.get(i.id)!;
    const reason = g.reason || `graded ${g.status} by the verifier model`;
    if (g.status !== "done")
      return { id: i.id, text: i.text, status: g.status, evidence: g.evidence.slice(0, 10), reason };
    const quotes = realQuotes(g.quotes, report.changes);
    if (quotes.length === 0)
      return {
        id: i.id,
        text: i.text,
        status: "unverified",
        evidence: g.evidence.slice(0, 10),
        reason: `${reason}; the verifier model quoted no line of the changes it judged`,
      };
    return { id: i.id, text: i.text, status: "done", evidence: quotes.map((q) => `${q.file}: ${q.line}`), reason };
  });
  const items = checkedByTests(graded, report.test);
  const status = reportStatus(items, report.test);
  return {
    ...report,
    items,
    status,
    method: "model",
    summary: summarise({ status, items, unplanned: report.unplanned, test: report.test }),
  };
}
