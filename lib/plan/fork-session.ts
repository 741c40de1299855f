import path from "node:path";
import { withTransaction, type Db } from "../db/client";
import { latestPlanContent } from "../db/plans/latest-plan-content";
import { insertSession } from "../db/sessions";
import { insertLogRows } from "../db/session-log/append-rows";
import { readEvents } from "../db/session-log/read-events";
import { assignSearchKey, indexDocs } from "../db/session-log/search-rows";
import { AppError } from "../errors";
import { newId } from "../id";
import { afterCommit, appendEventsInTx } from "../session/append-events";
import type { NewEvent } from "../session/log/events";
import { foldEvents } from "../session/log/fold";
import { getSession } from "../session/get-session";
import { projectionColumns } from "../session/log/projection";
import { searchDocs } from "../session/log/search-text";
import { planFilePath, planSlug } from "./plan-paths";
import { writePlanRows } from "./ensure-plan";
import { cancelDangling } from "../session/close-pending";
import type { Starter } from "../auth/rules/rights";
import { PlanFileError, preparePlanDir, readPlanFile, writePlanFile } from "./plan-file";
import { isExternalModel } from "../session/external-agents";
import { type MayCarry, resumeMode } from "../permission";
import { readGates } from "../session/mode-gates";

const FORK_CANCELLED =
  "Cancelled in this fork: the session was forked while this call waited (for a review or a permission), and its answer stays with the original session. If it is still needed, make the call again (for a plan: call exit_plan_mode to submit it for this fork's own review).";

/**
 * Forks a session at a point of its log: the copy keeps the events up to there (so its plan-mode state is the
 * original's at that point), gets a new plan slug, and a copy of the plan file so the two never overwrite each other.
 * Its mode is carried as a resume carries it: a mode that answers asks only when the forker may choose it
 * (`mayCarry`), never bypassPermissions; else default.
 */
export async function forkSession(db: Db, sourceId: string, mayCarry: MayCarry, atSeq?: number, starter?: Starter) {
  const { session: source } = await getSession(db, sourceId);
  const upto = atSeq ?? source.lastSeq;
  if (upto < 1 || upto > source.lastSeq)
    throw new AppError("bad_request", `atSeq: must be between 1 and ${source.lastSeq}`);
  const copied = await readEvents(db, sourceId, { upto });
  const before = foldEvents(copied);
  const id = newId("ses");
  const at = new Date();
  // A call still open at the fork point (the plan waiting for review, an ask) stays the original's: the fork
  // closes it as cancelled rather than running it again, silently, at its first message.
  const extra: NewEvent[] = [
    { type: "session.forked", payload: { fromSessionId: sourceId, atSeq: upto } },
    ...cancelDangling(copied, FORK_CANCELLED),
  ];
  // An outside agent's plan path came from the agent: a fork neither writes there nor next to it.
  const carried = resumeMode(before.mode, before.prePlanMode, await readGates(db), mayCarry, "fork");
  if (carried.changed)
    extra.push({
      type: "mode.changed",
      payload: { from: before.mode, to: carried.next.mode, prePlanMode: carried.next.prePlanMode, cause: "fork" },
    });
  const ownPlanFile = before.planPath !== null && !isExternalModel(source.model);
  if (ownPlanFile && before.planPath) {
    const slug = planSlug(before.firstPrompt);
    extra.push({
      type: "plan.created",
      payload: { planId: newId("pln"), slug, path: planFilePath(path.dirname(before.planPath), slug) },
    });
  }

  const result = await withTransaction(db, async (run) => {
    await insertSession(run, {
      id,
      title: `${source.title} (fork)`,
      workspace: source.workspace,
      agent: source.agent,
      model: source.model,
      forkedFromId: sourceId,
      forkSeq: upto,
      teamId: null,
      role: null,
      // The fork is the forker's: it is never bound to the source's agent token.
      startedBy: starter?.startedBy ?? null,
      agentTokenId: null,
      ...projectionColumns(before, at),
      createdAt: at,
    });
    await insertLogRows(run, id, copied, (e) => new Date(e.at));
    await assignSearchKey(run, id);
    await indexDocs(run, id, [
      { kind: "title", body: `${source.title} (fork)` },
      ...searchDocs(copied).filter((d) => d.kind !== "title"),
    ]);
    const appended = await appendEventsInTx(run, id, extra);
    await writePlanRows(run, id, appended.events);
    return appended;
  });
  afterCommit(id, result);
  // After the commit: the plan file is copied (or rebuilt from the newest version when the original is gone).
  // Neither side is followed through a link: a planted one must not copy an outside file into the fork.
  const target = result.state.planPath;
  if (ownPlanFile && target && before.planPath) {
    let content: string | null = null;
    try {
      content = readPlanFile(source.workspace, before.planPath);
    } catch (error) {
      if (!(error instanceof PlanFileError)) throw error;
    }
    if (content === null && before.planId) content = await latestPlanContent(db, before.planId);
    if (content !== null) writePlanFile(source.workspace, target, content);
    else preparePlanDir(source.workspace, target);
  }
  return getSession(db, id);
}
