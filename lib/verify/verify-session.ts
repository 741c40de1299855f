import type { Db } from "../db/client";
import { findBaselineManifest, latestApproval, type LatestApproval } from "../db/plans/baseline-tree";
import {
  countVerifications,
  insertVerification,
  lastVerificationStatus,
  selectVerifications,
} from "../db/verifications";
import { AppError } from "../errors";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import { getSession } from "../session/get-session";
import { readEvents } from "../db/session-log/read-events";
import type { PermissionRequestView } from "../session/permission-store";
import { gateVerifyCommand, runVerifyCommand } from "./verify-command";
import { workspaceConfigFor } from "../workspace/effective-config";
import { diffTrees, isGitWorkspace, isTreeId, ownFolders, snapshotTree } from "./git-snapshot";
import { matchPlan, type Change, type TestRun, type VerificationReport } from "./match-plan";
import type { VerificationView } from "./views/verification-view";
import { planItems, type PlanItem } from "./plan-items";
import { applyModelGrades, graderPrompt } from "./model-grades";
import { parseModelName } from "../model/rules/model-name";
import { mergeChanges, toolChanges } from "./tool-changes";
import { BASELINE_MANIFEST, BASELINE_NONE, baselineSettled } from "./take-baseline";
import { diffManifests, MANIFEST_LIMITS, parseManifest, takeManifest } from "./file-manifest";
import { heldByPolicy, heldRulesOf } from "../review/rules/held-asks";
import { policyHeldRules } from "../plan/policy-held";
import { detectSandbox } from "../sandbox/detect-sandbox";
import { heldLocations } from "../sandbox/held-locations";

export type { VerificationView } from "./views/verification-view";

/**
 * A verifier model with no tools: given the grader prompt, its answer's text (a provider error throws). Verify
 * sits below the model layer, so the caller (lib/agent) passes the one that calls the session's model.
 */
export type Grader = (modelName: string, prompt: { system: string; user: string }) => Promise<string>;

/** A check that cannot run yet: the person has not said whether the workspace's verify command may run. */
export type VerificationWaiting = { awaitingPermission: PermissionRequestView };

async function runTests(
  db: Db,
  sessionId: string,
  workspace: string,
  plan: LatestApproval,
): Promise<TestRun | null | VerificationWaiting> {
  const config = await workspaceConfigFor(db, workspace);
  const verify = config.raw.verify;
  if (!verify) return null;
  // The command comes from the workspace's config: it is run (after its own ask) only once a person trusted that content.
  if (!config.trusted)
    return {
      command: verify.command,
      exitCode: null,
      timedOut: false,
      outputTail: "",
      notRun:
        "the workspace's config (.plangate/config.json) is not trusted: trust it on the workspace page to run its verify command",
    };
  const n = await countVerifications(db, plan.planId, plan.version);
  const target = {
    sessionId,
    workspace,
    command: verify.command,
    timeoutMs: verify.timeoutMs ?? 300_000,
    extraRead: config.config.sandbox?.read ?? [],
  };
  // One ask per check: "once" allows this run, not the next verification of the same plan.
  const gate = await gateVerifyCommand(db, target, `verify:${plan.planId}:${plan.version}:${n}`);
  if (gate.kind === "waiting") return { awaitingPermission: gate.request };
  if (gate.kind === "declined")
    return {
      command: verify.command,
      exitCode: null,
      timedOut: false,
      outputTail: gate.message ?? "",
      notRun: "the person declined to run it",
    };
  // The paths the review policy holds stay read-only for the test run too: whoever allowed it, no owner did.
  const { state } = await getSession(db, sessionId);
  const rules = heldRulesOf(state, heldByPolicy(state) ? await policyHeldRules(db, workspace) : []);
  const held = heldLocations(
    rules.map((r) => r.pattern),
    workspace,
    { sandboxed: detectSandbox().available },
  );
  if (held.loose.length > 0)
    return {
      command: verify.command,
      exitCode: null,
      timedOut: false,
      outputTail: "",
      notRun: `the review policy holds ${held.loose.join(", ")} for their owners, which no sandbox can keep a command from writing`,
    };
  return runVerifyCommand({ ...target, held }, gate.network);
}

/**
 * Checks the work done since the latest plan approval against that plan: the tools' changes from the log,
 * git's view of the workspace since the approval (changes made behind the tools' backs), and the workspace's
 * test command. The deterministic matcher decides; the report is an event and a stored record.
 */
export async function verifySession(
  db: Db,
  sessionId: string,
  grade: Grader,
): Promise<VerificationView | VerificationWaiting> {
  await baselineSettled(sessionId);
  const { session } = await getSession(db, sessionId);
  const plan = await latestApproval(db, sessionId);
  if (!plan) throw new AppError("conflict", "There is no approved plan to verify against.");
  const events = await readEvents(db, sessionId);
  const approvedAt = events.find((e) => e.type === "review.answered" && e.payload.reviewId === plan.reviewId)?.seq ?? 0;
  const fromTools = toolChanges(events, approvedAt, session.workspace);
  const git = await sinceApproval(db, session.workspace, plan);
  const test = await runTests(db, sessionId, session.workspace, plan);
  if (test !== null && "awaitingPermission" in test) return test;
  const items = planItems(plan.content);
  const changes = mergeChanges(fromTools, git.changes);
  const deterministic = matchPlan(items, changes, test);
  const report = withUnchecked(
    (await gradeWithModel(grade, session.model, items, changes, test, deterministic)) ?? deterministic,
    git.unchecked,
  );
  const id = newId("ver");
  const at = new Date();
  await appendEvents(
    db,
    sessionId,
    [
      {
        type: "verification.completed",
        payload: {
          verificationId: id,
          planVersion: plan.version,
          status: report.status,
          method: report.method,
          summary: report.summary,
        },
      },
    ],
    {
      also: (run) =>
        insertVerification(run, {
          id,
          sessionId,
          planId: plan.planId,
          planVersion: plan.version,
          status: report.status,
          method: report.method,
          report: JSON.stringify(report),
          createdAt: at,
        }),
    },
  );
  return {
    id,
    sessionId,
    planId: plan.planId,
    planVersion: plan.version,
    status: report.status,
    method: report.method,
    report,
    createdAt: at.toISOString(),
  };
}

type GitView = { changes: Omit<Change, "via">[] | null; unchecked?: string };

/**
 * The workspace's changes since the approval, seen by git or by the files' manifest outside git. Without a
 * usable baseline (lost, or never taken) nothing is diffed, and the report says so rather than pass off the
 * tools' log as the whole story.
 */
async function sinceApproval(db: Db, workspace: string, plan: LatestApproval): Promise<GitView> {
  const baseline = plan.baselineTree;
  if (baseline === BASELINE_NONE)
    return { changes: null, unchecked: "the workspace was not captured when the plan was approved" };
  if (baseline === BASELINE_MANIFEST) return manifestSinceApproval(db, workspace, plan.versionId);
  if (!isGitWorkspace(workspace))
    return { changes: null, unchecked: "the workspace is no longer the git repository it was at approval" };
  if (!baseline || !isTreeId(baseline))
    return { changes: null, unchecked: "the workspace was not captured when the plan was approved" };
  const now = await snapshotTree(workspace);
  if (!now) return { changes: null, unchecked: "the workspace could not be snapshotted now" };
  return { changes: await diffTrees(workspace, baseline, now) };
}

async function manifestSinceApproval(db: Db, workspace: string, versionId: string): Promise<GitView> {
  const before = parseManifest(await findBaselineManifest(db, versionId));
  if (!before) return { changes: null, unchecked: "the workspace's snapshot from the approval could not be read" };
  // The baseline's unchanged files keep their hashes unread: verification's cost follows the turn's changes.
  const now = await takeManifest(workspace, MANIFEST_LIMITS, ownFolders(workspace), before);
  const changes = diffManifests(before, now);
  if (before.truncated || now.truncated)
    return {
      changes,
      unchecked: `the workspace has more than ${MANIFEST_LIMITS.maxFiles.toLocaleString("en")} files: only the first were compared`,
    };
  return { changes };
}

function withUnchecked(report: VerificationReport, unchecked: string | undefined): VerificationReport {
  return unchecked
    ? {
        ...report,
        gitUnchecked: unchecked,
        summary: `${report.summary}; changes outside the tools not checked (${unchecked})`,
      }
    : report;
}

/**
 * With a real model configured, a verifier with no tools (read-only) grades each item from the changes it is
 * shown; the offline and scripted models leave the deterministic verdicts. An unusable answer, or a provider
 * error, also keeps them (the report's method says which decided).
 */
async function gradeWithModel(
  grade: Grader,
  modelName: string,
  items: PlanItem[],
  changes: Change[],
  test: TestRun | null,
  report: VerificationReport,
): Promise<VerificationReport | null> {
  const { provider } = parseModelName(modelName);
  if (provider === "offline" || provider === "scripted" || items.length === 0) return null;
  try {
    const prompt = graderPrompt(items, changes, test);
    const text = await grade(modelName, prompt);
    return applyModelGrades(report, text);
  } catch (error) {
    console.error("plangate: the verifier model failed; keeping the deterministic verdicts", error);
    return null;
  }
}

/**
 * After a turn ends: the work after an approval is verified on its own the first time it is done, and again
 * after every turn that follows a failed check (the agent was sent back to finish, or worked on). A pass stands, and
 * so does "unverified" (nothing failed, nothing checked it): another turn would not check it either, and a declined
 * verify command is not asked again after every turn; /verify runs the check again on demand.
 */
export async function verifyIfDue(
  db: Db,
  sessionId: string,
  grade: Grader,
): Promise<VerificationView | VerificationWaiting | null> {
  const plan = await latestApproval(db, sessionId);
  if (!plan) return null;
  const last = await lastVerificationStatus(db, plan.planId, plan.version);
  if (last === "pass" || last === "unverified") return null;
  return verifySession(db, sessionId, grade);
}

export async function listVerifications(db: Db, sessionId: string): Promise<VerificationView[]> {
  return (await selectVerifications(db, sessionId)).map((r) => ({
    ...r,
    report: JSON.parse(r.report) as VerificationReport,
    createdAt: r.createdAt.toISOString(),
  }));
}
