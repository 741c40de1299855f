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
/** unchecked: the step describes no change a diff could show (run, verify, review…): not checkable, not failing. */
export type ItemVerdict = {
  id: number;
  text: string;
  status: "done" | "deviated" | "missing" | "unchecked";
  evidence: string[];
  reason: string;
};
export type VerificationReport = {
  status: "pass" | "fail";
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
