/** A changed file, as the tools' log or git's diff shows it. */
export type Change = { path: string; status: "added" | "modified" | "deleted"; patch: string; via: ("tool" | "git")[] };
/** notRun: why the command did not run (the person declined it); such a run neither passes nor fails the check. */
export type TestRun = {
  command: string;
  exitCode: number | null;
  timedOut: boolean;
  outputTail: string;
  notRun?: string;
};
/**
 * done: it changed and something checked its behaviour (the verify command passed after the change, or a verifier
 * model quoted the changed lines it judged); unverified: it changed, nothing checked it; failing: it changed and the
 * verify command failed after it; deviated / missing: only some / none of its change was made; unchecked: the step
 * describes no change a diff could show (run, verify, review…): not checkable, not failing.
 */
export type ItemStatus = "done" | "unverified" | "failing" | "deviated" | "missing" | "unchecked";
export type ItemVerdict = {
  id: number;
  text: string;
  status: ItemStatus;
  evidence: string[];
  reason: string;
};
/** pass: nothing failed and every changed item was checked; unverified: nothing failed, but not everything was checked. */
export type ReportStatus = "pass" | "fail" | "unverified";
export type VerificationReport = {
  status: ReportStatus;
  method: "deterministic" | "model";
  items: ItemVerdict[];
  unplanned: string[];
  changes: Change[];
  test: (TestRun & { passed: boolean }) | null;
  summary: string;
  /** Why git's view (changes made outside the tools) is missing from a git workspace's check, when it is. */
  gitUnchecked?: string;
};

/** A stored verification of an approved plan version, as the session page and the export show it. */
export type VerificationView = {
  id: string;
  sessionId: string;
  planId: string;
  planVersion: number;
  status: string;
  method: string;
  report: VerificationReport;
  createdAt: string;
};
