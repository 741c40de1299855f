import type { Db } from "../db/client";
import { findFirstPlan } from "../db/plans/plans";
import { findSessionModel } from "../db/plans/reviews";
import { findSessionOwner } from "../db/sessions";
import type { Starter } from "../core/people";
import { agentLabel, planTitle } from "../core/desk-view";
import { AppError } from "../errors";
import { newId } from "../id";
import { planProblem } from "../plan/plan-markdown";
import { writePlanRows } from "../plan/ensure-plan";
import path from "node:path";
import { appendEvents } from "../session/append-events";
import { createSession } from "../session/create-session";
import type { NewEvent } from "../core/events";
import { isWriteConflict, WriteConflict } from "../db/retry";
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
  /** The agent's working folder as a label (lib/core/outside-folder): never resolved on the server's disk. */
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

/** The outside agent's session, created (in plan mode) the first time one of its plans or asks arrives. */
export async function ensureExternalSession(
  db: Db,
  p: Pick<ExternalPlan, "agent" | "externalId" | "workspace" | "starter" | "machine">,
  title = `${agentLabel(p.agent, true)} in ${projectOf(p.workspace, p.machine)}`,
): Promise<string> {
  const id = externalSessionId(p.agent, p.externalId, p.workspace, p.machine);
  if ((await findSessionModel(db, id)) === undefined) {
    try {
      await createSession(db, {
        id,
        title,
        workspace: p.workspace,
        agent: p.agent,
        model: EXTERNAL_MODEL,
        mode: "plan",
        externalId: p.externalId,
        starter: p.starter,
      });
      return id;
    } catch (error) {
      // Two hooks for one new session (or two instances): the other created it.
      if (!isWriteConflict(error)) throw error;
    }
  }
  // The route checked the binding before; this holds it when another token created the session in between.
  const owner = await findSessionOwner(db, id);
  if (p.starter.agentTokenId !== null && owner?.agentTokenId !== p.starter.agentTokenId)
    throw new AppError("forbidden", "That session belongs to another agent's token.");
  return id;
}

/**
 * An outside agent's plan becomes a plan-review Review exactly like Plangate's own: a turn (the agent's, as
 * it runs in its terminal) with an exit_plan_mode call whose result the decision writes, a plan version, and
 * the pending review, so the desk, the mailbox, History and the exports show it unchanged. A review still
 * pending from an earlier hook of the same session (its hook gave up) is closed first.
 */
export async function submitExternalPlan(
  db: Db,
  p: ExternalPlan,
): Promise<{ sessionId: string; reviewId: string; version: number }> {
  const problem = planProblem(p.plan);
  if (problem) throw new AppError("bad_request", `plan: ${problem}`);
  // Named from what it plans and where, so a person can tell it from the other terminals on the desk.
  const sessionId = await ensureExternalSession(db, p, `${planTitle(p.plan)} · ${projectOf(p.workspace, p.machine)}`);
  const reviewId = newId("rev");
  const callId = newId("call");
  for (let attempt = 0; ; attempt++) {
    const plan = await findFirstPlan(db, sessionId);
    const planId = plan?.id ?? newId("pln");
    const version = (plan?.currentVersion ?? 0) + 1;
    try {
      const submission = { sessionId, planId, version, markdown: p.plan, file: p.planFilePath, reviewId, callId };
      await appendEvents(
        db,
        sessionId,
        (s) => [
          ...supersedeEvents(s),
          ...(plan ? [] : [planCreated(planId, p.planFilePath)]),
          ...(s.openTurnId ? [] : [{ type: "turn.started" as const, payload: { turnId: newId("trn") } }]),
          { type: "tool.called", payload: { callId, tool: "exit_plan_mode", input: { plan: p.plan } } },
          ...submissionEvents({ ...submission, team: s.team }, "outside"),
        ],
        {
          also: async (tx, result) => {
            await closeSuperseded(tx, sessionId, result.events, version, p.agent);
            await writePlanRows(tx, sessionId, result.events);
            await submitPlan(tx, { ...submission, team: result.state.team });
          },
        },
      );
      return { sessionId, reviewId, version };
    } catch (error) {
      if (
        attempt < 5 &&
        (error instanceof PlanVersionTaken || error instanceof WriteConflict || isWriteConflict(error))
      )
        continue;
      throw error;
    }
  }
}
