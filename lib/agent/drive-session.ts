import type { Db } from "../db/client";
import { getEnv } from "../env";
import { appendEvents, forgetHint, StaleAppend } from "../session/append-events";
import type { SessionEvent } from "../session/log/events";
import { getSession } from "../session/get-session";
import { readEvents } from "../db/session-log/read-events";
import { detectSandbox } from "../sandbox/detect-sandbox";
import { warmFiles } from "../tools/file-view";
import { extendView, previousCalls, steps, viewMessages, type ConversationView } from "./conversation-view";
import { releaseView, takeView } from "./conversation-cache";
import { runModelStep, turnEnded } from "./run-model-step";
import { acquireLease, keepLease, releaseLease } from "../session/lease";
import { readGates } from "../session/mode-gates";
import { isScriptExhausted } from "../model/scripted-model";
import { describeModelError } from "../model/model-errors";
import { reportInterrupted, runToolCall } from "./run-tool-call";
import { stricter } from "./issued-modes";
import { ancestorsNow } from "./ancestors";
import { loadSessionContext } from "./session-context";
import { abortLocal, abortSignalFor, clearAbort, runningTurn } from "./turn-signals";
import { isAbort } from "./is-abort";
import { watchLog } from "../session/log-watch";
import { transitionEvents } from "../plan/mode-choice";
import { approvalQueued } from "../review/approval-mode-events";
import { heldForStep, policyOnce } from "./held-now";
import { planFileEvents, preparePlanFolder, writePlanRows } from "../plan/ensure-plan";
import { planReference } from "../plan/plan-reference";
import { deliverMail } from "../team/deliver-mail";
import { startSession } from "./start-session";
import { verifyIfDue } from "../verify/verify-session";
import { gradeWithVerifierModel } from "./verifier-model";
import { baselineOwed, takeOwedBaseline } from "../verify/take-baseline";
import { isExternalModel } from "../session/external-agents";

const MODE_TOOLS = new Set(["enter_plan_mode", "exit_plan_mode"]);

const CLOSED_GATES = Object.freeze({ autoGateOpen: false, bypassEnabled: false });

/**
 * One pass: run pending calls, then model steps, until the turn ends or waits. Returns when nothing more can
 * run now. Each step extends the session's conversation view with the events appended since the last one
 * (by us, or by a reply or message meanwhile): its cost does not grow with the log.
 */
async function runSteps(
  db: Db,
  sessionId: string,
  view: ConversationView,
  turn: { signal?: AbortSignal },
): Promise<void> {
  const env = getEnv();
  const sandbox = detectSandbox();
  let known: SessionEvent[] | null = null;
  const overflow = { compacted: false };
  for (;;) {
    // After our own model step nothing can sit between it and its tool calls, so its events are taken as
    // appended; every other boundary reads what others (messages, replies, aborts) appended meanwhile.
    extendView(view, known ?? (await readEvents(db, sessionId, { after: view.lastSeq })));
    known = null;
    const state = view.state;
    const turnId = state.openTurnId;
    if (!turnId || state.pendingPermissions.length > 0 || state.pendingReview) return;
    const session = await loadSessionContext(db, sessionId);
    // Only auto and bypassPermissions consult the gates; other modes skip the read.
    const gates = state.mode === "auto" || state.mode === "bypassPermissions" ? await readGates(db) : CLOSED_GATES;
    const signal = abortSignalFor(sessionId, turnId);
    turn.signal = signal;
    const { messages, pending, modelCalls } = viewMessages(view, () => planReference(state));

    if (pending.length > 0) {
      // The workspace's policy is read at most once a step, only when a session of the line has no approval yet.
      const policy = policyOnce(db, session.workspace);
      const lineage = await ancestorsNow(db, session, policy);
      const heldFor = heldForStep(state, policy, lineage);
      // The view is not extended while this step's calls run: its sets are read as they stand.
      const base = {
        db,
        session,
        gates,
        turnId,
        ancestors: lineage,
        askedCalls: view.asked,
        previous: previousCalls(view, pending),
      };
      for (const call of pending) {
        // Judged by the stricter of the mode the call was issued in and the one in force; an ancestor in plan
        // mode binds the whole line below it.
        const issuedMode = view.issued.get(call.callId) ?? state.mode;
        const mode = lineage.some((a) => a.mode === "plan") ? "plan" : stricter(issuedMode, state.mode);
        const held = await heldFor(call.tool);
        const run = {
          ...base,
          held,
          mode,
          // Plan mode left, or its leaving queued by the approval for this step's end: the refusal says why.
          issuedInPlan: issuedMode === "plan" && (state.mode !== "plan" || approvalQueued(state)),
          ctx: {
            sessionId,
            workspace: session.workspace,
            mode,
            readOnly: mode === "plan" || session.agent.readOnly,
            planFile: state.planPath,
            sandbox,
            signal,
            sandboxRead: session.config.config.sandbox?.read ?? [],
            held: [...new Set(held.map((r) => r.pattern))],
            runtime: {
              db,
              agent: session.agent.name,
              model: session.model,
              isSubagent: session.parentId !== null,
              drive: (id: string) => driveSession(db, id),
              team: state.team,
              startSession,
            },
          },
        };
        const outcome = view.started.has(call.callId)
          ? await reportInterrupted(run, call)
          : await runToolCall(run, call);
        if (outcome === "suspended") return;
        base.previous.push(call);
        // A call that switched the mode (enter_plan_mode) changes how the rest of this step is judged: re-read.
        if (MODE_TOOLS.has(call.tool)) break;
      }
      continue;
    }

    // Step boundary: a mode choice queued while the turn ran takes effect before the next request.
    if (state.queuedMode !== null) {
      await applyQueuedMode(db, sessionId, turnId);
      continue;
    }
    // Team mail waiting for this session is read before the next request.
    if (state.team && (await deliverMail(db, sessionId, state.team.id, turnId))) continue;
    if (steps(view).inTurn >= env.PLANGATE_MAX_STEPS) {
      await appendEvents(db, sessionId, [turnEnded(turnId, "max_steps", state.turnUsage)], {
        guard: (s) => s.openTurnId === turnId,
      });
      return;
    }
    if (session.model === "scripted" && isScriptExhausted(session.script, modelCalls)) {
      await appendEvents(db, sessionId, [{ type: "turn.ended", payload: { turnId, reason: "done" } }], {
        guard: (s) => s.openTurnId === turnId,
      });
      verifyAfterTurn(db, sessionId);
      return;
    }
    // The session's file worker starts while the model thinks, so its first file call finds it running.
    warmFiles({
      sessionId,
      workspace: session.workspace,
      readOnly: state.mode === "plan" || session.agent.readOnly,
      planFile: state.planPath,
      sandbox,
    });
    const appended = await runModelStep(db, {
      sessionId,
      session,
      state,
      turnId,
      messages,
      basis: view.lastSeq,
      modelCalls,
      contextChars: view.contextChars,
      sandbox,
      signal,
      overflow,
    });
    if (appended?.[0]?.seq === view.lastSeq + 1) known = appended;
    if (appended?.some((e) => e.type === "turn.ended")) verifyAfterTurn(db, sessionId);
  }
}

/** The first turn that ends after a plan approval gets the work checked against the plan (in the background). */
function verifyAfterTurn(db: Db, sessionId: string): void {
  void verifyIfDue(db, sessionId, gradeWithVerifierModel).catch((error: unknown) =>
    console.error(`plangate: verifying ${sessionId} failed`, error),
  );
}

/**
 * Runs a session's open turn if this process can take its lease. Holds nothing while the turn waits: a reply,
 * an answer or a child's end calls this again, in whatever process receives it.
 */
export async function driveSession(db: Db, sessionId: string): Promise<void> {
  if (await endOutsideTurn(db, sessionId)) return;
  for (let round = 0; round < 10; round++) {
    // A plan approval's workspace baseline still owed (its snapshot was cut short) is taken before any tool can run.
    await takeOwedBaseline(db, sessionId);
    const token = await acquireLease(db, sessionId);
    if (!token) return;
    // The approval may have committed (or its holder let go) between that look and this lease: the baseline is
    // taken, or recorded as lost, before this drive runs anything.
    if (await baselineOwed(db, sessionId)) {
      await releaseLease(db, sessionId, token);
      continue;
    }
    // Lost to another instance (this one stalled past the expiry): stop what runs here, the new holder goes on.
    const stopRenewing = keepLease(db, sessionId, token, () => abortLocal(sessionId));
    // An abort taken by another instance closes the turn in the log: cancel what runs here for it right away.
    const unwatch = watchLog(db, sessionId, () => void cancelIfEnded(db, sessionId).catch(() => undefined));
    let view: ConversationView | null = null;
    // The signal of the turn that ran: once it fired, whatever the interrupted call threw is that abort.
    const turn: { signal?: AbortSignal } = {};
    try {
      view = await takeView(db, sessionId);
      await runSteps(db, sessionId, view, turn);
    } catch (error) {
      if (!(error instanceof StaleAppend) && !isAbort(error, turn.signal)) {
        // Whatever failed, the next drive rebuilds its view from the log rather than trust this one.
        view = null;
        await failTurn(db, sessionId, error);
      }
    } finally {
      stopRenewing();
      unwatch();
      if (view) releaseView(sessionId, view);
      await releaseLease(db, sessionId, token);
    }
    // A reply may have landed while we held the lease (its own drive found the lease taken): look again.
    if (!(await runnable(db, sessionId))) break;
  }
  // Waiting or done, this process keeps nothing of the session but bounded caches (its conversation view and
  // context) that only save re-reading the log: whatever resumes it, here or in another process, starts from the log.
  clearAbort(sessionId);
  forgetHint(sessionId);
  await afterTurn(db, sessionId);
}

async function applyQueuedMode(db: Db, sessionId: string, turnId: string): Promise<void> {
  const gates = await readGates(db);
  const { state } = await appendEvents(
    db,
    sessionId,
    (s) => {
      if (s.queuedMode === null) return [];
      const change = transitionEvents(s, s.queuedMode, gates, s.queuedCause ?? "user");
      if (change.length === 0)
        return [{ type: "mode.queued", payload: { target: null, cause: s.queuedCause ?? "user" } }];
      return [...(s.queuedMode === "plan" ? planFileEvents(s, sessionId) : []), ...change];
    },
    { guard: (s) => s.openTurnId === turnId, also: (run, result) => writePlanRows(run, sessionId, result.events) },
  );
  preparePlanFolder(state);
}

// The projection row holds the folded state: no log replay at the end of a drive, however long the log.
const stateNow = async (db: Db, sessionId: string) => (await getSession(db, sessionId)).state;

async function failTurn(db: Db, sessionId: string, error: unknown): Promise<void> {
  const state = await stateNow(db, sessionId);
  const turnId = state.openTurnId;
  if (!turnId) return;
  const { session } = await getSession(db, sessionId);
  const message = describeModelError(error, session.model);
  await appendEvents(
    db,
    sessionId,
    [
      { type: "notice", payload: { level: "warning", text: `The turn stopped on an error: ${message}` } },
      turnEnded(turnId, "error", state.turnUsage),
    ],
    { guard: (s) => s.openTurnId === turnId },
  ).catch(() => undefined);
}

/**
 * An outside agent (Claude Code, OpenCode) runs its own turns: a decision on its plan closes the turn Plangate
 * opened for the review, and no model is called here. True when the session is such a session.
 */
async function endOutsideTurn(db: Db, sessionId: string): Promise<boolean> {
  const { session, state } = await getSession(db, sessionId);
  if (!isExternalModel(session.model)) return false;
  const turnId = state.openTurnId;
  if (turnId && !state.pendingReview && state.pendingPermissions.length === 0) {
    await appendEvents(db, sessionId, [{ type: "turn.ended", payload: { turnId, reason: "done" } }], {
      guard: (s) => s.openTurnId === turnId && !s.pendingReview,
    }).catch((error: unknown) => {
      if (!(error instanceof StaleAppend)) throw error;
    });
  }
  return true;
}

async function cancelIfEnded(db: Db, sessionId: string): Promise<void> {
  const turn = runningTurn(sessionId);
  if (turn !== null && (await stateNow(db, sessionId)).openTurnId !== turn) abortLocal(sessionId);
}

async function runnable(db: Db, sessionId: string): Promise<boolean> {
  const state = await stateNow(db, sessionId);
  return (
    state.openTurnId !== null &&
    state.pendingPermissions.length === 0 &&
    state.pendingReview === null &&
    state.waitingOn === null
  );
}

/** When a subagent's turn is over, its parent's task call can finish: wake the parent. */
async function afterTurn(db: Db, sessionId: string): Promise<void> {
  const state = await stateNow(db, sessionId);
  if (state.openTurnId) return;
  clearAbort(sessionId);
  if (!state.parentId) return;
  const parent = await stateNow(db, state.parentId);
  if (parent.waitingOn?.on === sessionId) void driveSession(db, state.parentId);
}
