import { findFirstPlan } from "../db/plans/plans";
import { findSessionModel } from "../db/plans/reviews";
import { findSessionOwner } from "../db/sessions";
import type { Starter } from "../auth/rules/rights";
import { agentLabel, planTitle } from "../desk/views/desk-view";
import { AppError } from "../errors";
import { newId } from "../id";
import { planProblem } from "../plan/plan-markdown";
import { writePlanRows } from "../plan/ensure-plan";
import path from "node:path";
import { type Appended, appendEvents } from "../session/append-events";
import { createSession } from "../session/create-session";
import type { NewEvent } from "../session/log/events";
import type { SessionState } from "../session/log/fold";
import type { Db, Executor } from "../db/client";
import { isWriteConflict, withConflictRetry } from "../db/write-conflict";
import {
  closeSuperseded,
  PlanVersionTaken,
  submissionEvents,
  submitPlan,
  supersedeEvents,
} from "../review/submit-plan";
import { externalSessionId, EXTERNAL_MODEL, type ExternalAgent } from "../session/external-agents";

export type ExternalPlan = {
  agent: ExternalAgent;
  externalId: string;
  /** The agent's working folder as a label (lib/external/rules/outside-folder): never resolved on the server's disk. */
  workspace: string;
  plan: string;
  /** Where the agent keeps the plan (e.g. ~/.claude/plans/<slug>.md): shown, never written by Plangate. */
  planFilePath: string;
  /** Who submits it (the agent token's person and the token): a new session is bound to them. */
  starter: Starter;
  /** The machine the agent runs on, as it says (a label in the session's title). */
  machine?: string | undefined;
};

const projectOf = (workspace: string, machine?: string) =>
  `${path.basename(workspace) || workspace}${machine ? ` on ${machine}` : ""}`;

const planCreated = (planId: string, file: string): NewEvent => ({
  type: "plan.created",
  payload: { planId, slug: slugOf(file), path: file },
});

const slugOf = (file: string) =>
  (file.split("/").pop() ?? "plan")
    .replace(/\.md$/i, "")
    .replace(/[^A-Za-z0-9_-]/g, "-")
    .slice(0, 60) || "plan";

const sessionInput = (p: SessionPart, id: string, title: string) => ({
  id,
  title,
  workspace: p.workspace,
  agent: p.agent,
  model: EXTERNAL_MODEL,
  mode: "plan" as const,
  externalId: p.externalId,
  starter: p.starter,
});

type SessionPart = Pick<ExternalPlan, "agent" | "externalId" | "workspace" | "starter" | "machine">;

/** The outside agent's session, created (in plan mode) the first time one of its plans or asks arrives. */
export async function ensureExternalSession(
  db: Db,
  p: SessionPart,
  title = `${agentLabel(p.agent, true)} in ${projectOf(p.workspace, p.machine)}`,
): Promise<string> {
  const id = externalSessionId(p.agent, p.externalId, p.workspace, p.machine);
  const create = async () => {
    await createSession(db, sessionInput(p, id, title));
  };
  if (!(await createdHere(db, id, create))) await checkBinding(db, p, id);
  return id;
}

/**
 * Runs `create` while the session does not exist; true when this call made it. A conflict rolls the creation
 * back: another hook or instance made the session (false: the caller checks it is theirs), or the write only
 * collided (busy, a deadlock), and creating is tried again. A session never made answers with the conflict,
 * never as another token's session.
 */
async function createdHere(db: Db, id: string, create: () => Promise<void>): Promise<boolean> {
  try {
    return await withConflictRetry(
      async () => {
        if ((await findSessionModel(db, id)) !== undefined) return false;
        await create();
        return true;
      },
      5,
      versionTaken,
    );
  } catch (error) {
    if (!isWriteConflict(error) && !versionTaken(error)) throw error;
    if ((await findSessionModel(db, id)) === undefined) throw error;
    return false;
  }
}

const versionTaken = (error: unknown) => error instanceof PlanVersionTaken;

// The route checked the binding before; this holds it when another token created the session in between.
async function checkBinding(db: Db, p: SessionPart, id: string): Promise<void> {
  const owner = await findSessionOwner(db, id);
  if (p.starter.agentTokenId !== null && owner?.agentTokenId !== p.starter.agentTokenId)
    throw new AppError("forbidden", "That session belongs to another agent's token.");
}

type Submission = { sessionId: string; reviewId: string; version: number };

/**
 * An outside agent's plan becomes a plan-review Review exactly like Plangate's own: a turn (the agent's, as
 * it runs in its terminal) with an exit_plan_mode call whose result the decision writes, a plan version, and
 * the pending review, so the desk, the mailbox, History and the exports show it unchanged. A review still
 * pending from an earlier hook of the same session (its hook gave up) is closed first.
 */
export async function submitExternalPlan(db: Db, p: ExternalPlan): Promise<Submission> {
  const problem = planProblem(p.plan);
  if (problem) throw new AppError("bad_request", `plan: ${problem}`);
  // Named from what it plans and where, so a person can tell it from the other terminals on the desk.
  const title = `${planTitle(p.plan)} · ${projectOf(p.workspace, p.machine)}`;
  const sessionId = externalSessionId(p.agent, p.externalId, p.workspace, p.machine);
  const reviewId = newId("rev");
  const callId = newId("call");
  // A new session and its first plan commit together: one transaction where most hooks' first call made two.
  const created = await createdHere(db, sessionId, async () => {
    const first = submissionOf(p, { sessionId, planId: newId("pln"), version: 1, reviewId, callId }, false);
    await createSession(db, sessionInput(p, sessionId, title), first);
  });
  if (created) return { sessionId, reviewId, version: 1 };
  await checkBinding(db, p, sessionId);
  return withConflictRetry(
    async () => {
      const plan = await findFirstPlan(db, sessionId);
      const version = (plan?.currentVersion ?? 0) + 1;
      const next = submissionOf(p, { sessionId, planId: plan?.id ?? newId("pln"), version, reviewId, callId }, !!plan);
      await appendEvents(db, sessionId, next.events, { also: next.also });
      return { sessionId, reviewId, version };
    },
    6,
    versionTaken,
  );
}

/** One submission's events (from the state they follow) and the rows that commit with them. */
function submissionOf(
  p: ExternalPlan,
  ids: { sessionId: string; planId: string; version: number; reviewId: string; callId: string },
  planExists: boolean,
) {
  const submission = { ...ids, markdown: p.plan, file: p.planFilePath };
  return {
    events: (s: SessionState): NewEvent[] => [
      ...supersedeEvents(s),
      ...(planExists ? [] : [planCreated(ids.planId, p.planFilePath)]),
      ...(s.openTurnId ? [] : [{ type: "turn.started" as const, payload: { turnId: newId("trn") } }]),
      { type: "tool.called", payload: { callId: ids.callId, tool: "exit_plan_mode", input: { plan: p.plan } } },
      ...submissionEvents({ ...submission, team: s.team }, "outside"),
    ],
    also: async (tx: Executor, result: Appended) => {
      await closeSuperseded(tx, ids.sessionId, result.events, ids.version, p.agent);
      await writePlanRows(tx, ids.sessionId, result.events);
      await submitPlan(tx, { ...submission, team: result.state.team });
    },
  };
}
