import type { Db } from "../db/client";
import { sql } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import { getSession } from "../session/get-session";
import { readEvents } from "../session/read-events";
import type { PermissionRequestView } from "../session/permission-store";
import { gateVerifyCommand, runVerifyCommand } from "./verify-command";
import { workspaceConfigFor } from "../workspace/effective-config";
import { diffTrees, isGitWorkspace, isTreeId, snapshotTree } from "./git-snapshot";
import { matchPlan, type Change, type TestRun, type VerificationReport } from "./match-plan";
import { planItems, type PlanItem } from "./plan-items";
import { applyModelGrades, graderPrompt } from "./model-grades";
import { callModel } from "../model/call-model";
import { parseModelName, resolveModel } from "../model/resolve-model";
import { getEnv } from "../env";
import { mergeChanges, toolChanges } from "./tool-changes";
import { BASELINE_NONE, baselineSettled } from "./take-baseline";

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

type Approved = {
  planId: string;
  version: number;
  content: string;
  baselineTree: string | null;
  reviewId: string | null;
};

async function latestApproved(db: Db, sessionId: string): Promise<Approved | null> {
  const [row] = await (await sql(db)).query<Approved>(
    `SELECT v."planId", v."version", v."content", v."baselineTree",
       (SELECT r."id" FROM "Review" r WHERE r."planId" = v."planId" AND r."planVersion" = v."version" AND r."decision" = 'approve' LIMIT 1) AS "reviewId"
     FROM "PlanVersion" v JOIN "Plan" p ON p."id" = v."planId"
     WHERE p."sessionId" = ? AND v."status" = 'approved' ORDER BY v."decidedAt" DESC LIMIT 1`,
    [sessionId],
  );
  return row ?? null;
}

/** A check that cannot run yet: the person has not said whether the workspace's verify command may run. */
export type VerificationWaiting = { awaitingPermission: PermissionRequestView };

async function runTests(
  db: Db,
  sessionId: string,
  workspace: string,
  plan: Approved,
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
  const [{ n }] = (await (
    await sql(db)
  ).query<{ n: number }>('SELECT COUNT(*) AS "n" FROM "Verification" WHERE "planId" = ? AND "planVersion" = ?', [
    plan.planId,
    plan.version,
  ])) as [{ n: number }];
  const target = {
    sessionId,
    workspace,
    command: verify.command,
    timeoutMs: verify.timeoutMs ?? 300_000,
    extraRead: config.config.sandbox?.read ?? [],
  };
  // One ask per check: "once" allows this run, not the next verification of the same plan.
  const gate = await gateVerifyCommand(db, target, `verify:${plan.planId}:${plan.version}:${Number(n)}`);
  if (gate.kind === "waiting") return { awaitingPermission: gate.request };
  if (gate.kind === "declined")
    return {
      command: verify.command,
      exitCode: null,
      timedOut: false,
      outputTail: gate.message ?? "",
      notRun: "the person declined to run it",
    };
  return runVerifyCommand(target, gate.network);
}

/**
 * Checks the work done since the latest plan approval against that plan: the tools' changes from the log,
 * git's view of the workspace since the approval (changes made behind the tools' backs), and the workspace's
 * test command. The deterministic matcher decides; the report is an event and a stored record.
 */
export async function verifySession(db: Db, sessionId: string): Promise<VerificationView | VerificationWaiting> {
  await baselineSettled(sessionId);
  const { session } = await getSession(db, sessionId);
  const plan = await latestApproved(db, sessionId);
  if (!plan) throw new AppError("conflict", "There is no approved plan to verify against.");
  const events = await readEvents(db, sessionId);
  const approvedAt = events.find((e) => e.type === "review.answered" && e.payload.reviewId === plan.reviewId)?.seq ?? 0;
  const fromTools = toolChanges(events, approvedAt, session.workspace);
  const git = await gitSinceApproval(session.workspace, plan.baselineTree);
  const test = await runTests(db, sessionId, session.workspace, plan);
  if (test !== null && "awaitingPermission" in test) return test;
  const items = planItems(plan.content);
  const changes = mergeChanges(fromTools, git.changes);
  const deterministic = matchPlan(items, changes, test);
  const report = withUnchecked(
    (await gradeWithModel(session.model, items, changes, test, deterministic)) ?? deterministic,
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
      also: async (run) => {
        await run.execute(
          'INSERT INTO "Verification" ("id", "sessionId", "planId", "planVersion", "status", "method", "report", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          [id, sessionId, plan.planId, plan.version, report.status, report.method, JSON.stringify(report), at],
        );
      },
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
 * Git's view of the changes since the approval. Without a usable baseline in a git workspace (lost, or never
 * taken) nothing is diffed, and the report says so rather than pass off the tools' log as the whole story.
 */
async function gitSinceApproval(workspace: string, baseline: string | null): Promise<GitView> {
  if (baseline === BASELINE_NONE || !isGitWorkspace(workspace)) return { changes: null };
  if (!baseline || !isTreeId(baseline))
    return { changes: null, unchecked: "the workspace was not captured when the plan was approved" };
  const now = await snapshotTree(workspace);
  if (!now) return { changes: null, unchecked: "the workspace could not be snapshotted now" };
  return { changes: await diffTrees(workspace, baseline, now) };
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
    const step = await callModel({
      model: resolveModel(modelName, { env: getEnv(), stepIndex: 0 }),
      system: prompt.system,
      messages: [{ role: "user", content: [{ type: "text", text: prompt.user }] }],
      tools: [],
      abortSignal: AbortSignal.timeout(120_000),
      // Runs in the background, outside any turn: a few quiet tries, then the deterministic verdicts stand.
      attempts: Math.min(3, getEnv().PLANGATE_MODEL_ATTEMPTS),
      retryBaseMs: getEnv().PLANGATE_RETRY_BASE_MS,
    });
    return applyModelGrades(report, step.text);
  } catch (error) {
    console.error("plangate: the verifier model failed; keeping the deterministic verdicts", error);
    return null;
  }
}

/** After a turn ends: the first time the work after an approval is done, it is verified once on its own. */
export async function verifyIfDue(db: Db, sessionId: string): Promise<VerificationView | VerificationWaiting | null> {
  const plan = await latestApproved(db, sessionId);
  if (!plan) return null;
  const [done] = await (await sql(db)).query<{ id: string }>(
    'SELECT "id" FROM "Verification" WHERE "planId" = ? AND "planVersion" = ? LIMIT 1',
    [plan.planId, plan.version],
  );
  if (done) return null;
  return verifySession(db, sessionId);
}

export async function listVerifications(db: Db, sessionId: string): Promise<VerificationView[]> {
  const rows = await (await sql(db)).query<{
    id: string;
    sessionId: string;
    planId: string;
    planVersion: number;
    status: string;
    method: string;
    report: string;
    createdAt: string | Date;
  }>(
    'SELECT "id", "sessionId", "planId", "planVersion", "status", "method", "report", "createdAt" FROM "Verification" WHERE "sessionId" = ? ORDER BY "createdAt", "id"',
    [sessionId],
  );
  return rows.map((r) => ({
    ...r,
    planVersion: Number(r.planVersion),
    report: JSON.parse(r.report) as VerificationReport,
    createdAt: new Date(r.createdAt).toISOString(),
  }));
}
