import type { PlanItem } from "./plan-items";
import type { Change, ItemVerdict, TestRun, VerificationReport } from "./views/verification-view";
import { checkedByTests, reportStatus, summarise, testResult } from "./checked-verdicts";

export type { Change, ItemVerdict, TestRun, VerificationReport } from "./views/verification-view";

// Steps that describe an activity rather than a change to the files.
const ACTIVITY =
  /^(?:run|re-?run|verify|check|confirm|review|ensure|make sure|ask|discuss|consider|investigate|read|look|explore|measure|benchmark|deploy|monitor|notify|communicate|test manually)\b/i;

const STOP = new Set([
  "the",
  "and",
  "for",
  "with",
  "into",
  "from",
  "that",
  "this",
  "then",
  "them",
  "add",
  "update",
  "make",
  "use",
  "new",
  "all",
  "any",
  "its",
  "out",
  "via",
]);

/** Significant words of an item (4+ letters, not filler), for items that name no file. */
function keywords(text: string): string[] {
  return [...new Set((text.toLowerCase().match(/[a-z][a-z0-9_]{3,}/g) ?? []).filter((w) => !STOP.has(w)))];
}

const matches = (changed: string, named: string) =>
  changed === named || changed.startsWith(`${named.replace(/\/$/, "")}/`) || changed.endsWith(`/${named}`);

/**
 * Pure, the deterministic matcher. An item that names files changed when every named file changed, deviated
 * when only some did, missing when none did. An item that names no file changed when a changed file's path
 * or added lines carry most of its words (a test item: when a test file changed). A change is not a check: a
 * changed item is done only when the verify command passed after it (lib/verify/checked-verdicts). Changes no
 * item names are unplanned (listed, not failing).
 */
export function matchPlan(items: PlanItem[], changes: Change[], test: TestRun | null): VerificationReport {
  const relevant = changes.filter((c) => !c.path.startsWith(".plangate/"));
  const covered = new Set<string>();
  const verdicts = items.map((item): ItemVerdict => {
    if (item.files.length > 0) {
      const hit = item.files.map((f) => ({ f, changed: relevant.filter((c) => matches(c.path, f)) }));
      for (const h of hit) for (const c of h.changed) covered.add(c.path);
      const done = hit.filter((h) => h.changed.length > 0);
      const evidence = done.flatMap((h) =>
        h.changed.map((c) => `${c.path} (${c.status}${c.via.includes("tool") ? "" : ", outside the tools"})`),
      );
      if (done.length === hit.length)
        return { id: item.id, text: item.text, status: "unverified", evidence, reason: "every file it names changed" };
      const missing = hit.filter((h) => h.changed.length === 0).map((h) => h.f);
      if (done.length > 0)
        return {
          id: item.id,
          text: item.text,
          status: "deviated",
          evidence,
          reason: `not changed: ${missing.join(", ")}`,
        };
      return {
        id: item.id,
        text: item.text,
        status: "missing",
        evidence: [],
        reason: `none of its files changed (${missing.join(", ")})`,
      };
    }
    if (/\btests?\b|\bspec\b/i.test(item.text)) {
      const tests = relevant.filter((c) => /(^|\/)(tests?|__tests__|spec)\/|\.(test|spec)\.[a-z]+$/i.test(c.path));
      for (const c of tests) covered.add(c.path);
      if (tests.length > 0)
        return {
          id: item.id,
          text: item.text,
          status: "unverified",
          evidence: tests.map((c) => c.path),
          reason: "a test file changed",
        };
    }
    if (item.files.length === 0 && ACTIVITY.test(item.text.replace(/^[`*_]+/, ""))) {
      return {
        id: item.id,
        text: item.text,
        status: "unchecked",
        evidence: [],
        reason: "describes an activity, not a change to the files: not checkable from a diff",
      };
    }
    const words = keywords(item.text);
    const scored = relevant
      .map((c) => {
        const added = c.patch
          .split("\n")
          .filter((l) => l.startsWith("+"))
          .join("\n")
          .toLowerCase();
        const hay = `${c.path.toLowerCase()}\n${added}`;
        return { c, hits: words.filter((w) => hay.includes(w)).length };
      })
      .filter((s) => words.length > 0 && s.hits * 2 >= words.length)
      .sort((a, b) => b.hits - a.hits);
    if (scored.length > 0) {
      for (const s of scored) covered.add(s.c.path);
      return {
        id: item.id,
        text: item.text,
        status: "unverified",
        evidence: scored.map((s) => `${s.c.path} (${s.hits}/${words.length} words of the step)`),
        reason: "its words appear in a change",
      };
    }
    if (words.length === 0)
      return {
        id: item.id,
        text: item.text,
        status: "unchecked",
        evidence: [],
        reason: "names no file and no checkable words",
      };
    return { id: item.id, text: item.text, status: "missing", evidence: [], reason: "no change carries its words" };
  });
  const unplanned = relevant.filter((c) => !covered.has(c.path)).map((c) => c.path);
  const run = testResult(test);
  const checked = checkedByTests(verdicts, run);
  const status = reportStatus(checked, run);
  return {
    status,
    method: "deterministic",
    items: checked,
    unplanned,
    changes,
    test: run,
    summary: summarise({ status, items: checked, unplanned, test: run }),
  };
}
