import type { ItemVerdict, ReportStatus, TestRun, VerificationReport } from "./views/verification-view";

export type RunResult = (TestRun & { passed: boolean }) | null;

/** Pure: the run's result; a run that did not happen (declined, untrusted) neither passes nor fails. */
export function testResult(test: TestRun | null): RunResult {
  return test ? { ...test, passed: test.notRun === undefined && test.exitCode === 0 && !test.timedOut } : null;
}

const ran = (t: RunResult) => t !== null && t.notRun === undefined;

/**
 * Pure: a changed item counts as done only when something checked it. The verify command ran after the change:
 * passed, each changed item is done; failed, each is failing (the run checks the whole workspace, so the failure is
 * not pinned on one item). Without a run, a changed item stays "unverified: changed, not checked".
 */
export function checkedByTests(items: ItemVerdict[], test: RunResult): ItemVerdict[] {
  if (!ran(test)) return items;
  return items.map((i) => {
    if (i.status !== "unverified") return i;
    return test?.passed
      ? { ...i, status: "done", reason: `${i.reason}; the verify command passed after the change` }
      : { ...i, status: "failing", reason: `${i.reason}; the verify command failed after the change` };
  });
}

/** Pure: fail on any item not done or a failing run; pass only when nothing is left unchecked and something checked. */
export function reportStatus(items: ItemVerdict[], test: RunResult): ReportStatus {
  const failed = items.some((i) => i.status === "missing" || i.status === "deviated" || i.status === "failing");
  if (failed || (ran(test) && !test?.passed)) return "fail";
  const checked = test?.passed === true || items.some((i) => i.status === "done");
  return checked && !items.some((i) => i.status === "unverified") ? "pass" : "unverified";
}

function testSummary(t: NonNullable<RunResult>): string {
  if (t.notRun !== undefined) return `verify command not run (${t.notRun})`;
  return t.passed
    ? "verify command passed"
    : `verify command failed (${t.timedOut ? "timed out" : t.exitCode === null ? "refused" : `exit ${t.exitCode}`})`;
}

const WORDS: Record<ReportStatus, string> = { pass: "Pass", fail: "Fail", unverified: "Unverified" };

/** Pure: the one-line summary of a report, from its verdicts and its facts. */
export function summarise(r: Pick<VerificationReport, "status" | "items" | "unplanned" | "test">): string {
  const count = (s: ItemVerdict["status"]) => r.items.filter((i) => i.status === s).length;
  const checkable = r.items.length - count("unchecked");
  const parts = [
    `${count("done")}/${checkable} checkable plan items done and checked`,
    ...(count("unverified") ? [`${count("unverified")} changed, not checked`] : []),
    ...r.items
      .filter((i) => i.status === "missing" || i.status === "deviated")
      .map((i) => `${i.status === "missing" ? "not done" : "deviated"}: ${i.text}`),
    ...(count("unchecked") ? [`${count("unchecked")} not checkable`] : []),
    ...(r.unplanned.length ? [`unplanned: ${r.unplanned.join(", ")}`] : []),
    r.test ? testSummary(r.test) : "no verify command (.plangate/config.json verify.command)",
  ];
  return `${WORDS[r.status]}: ${parts.join("; ")}`;
}
