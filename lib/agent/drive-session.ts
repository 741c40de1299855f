import { generateText } from "ai";
import type { Db } from "../db/client";
import { getEnv } from "../env";
import { appendEvents, StaleAppend } from "../session/append-events";
import type { NewEvent, SessionEvent } from "../session/events";
import { foldEvents } from "../session/fold";
import { readEvents } from "../session/read-events";
import { detectSandbox } from "../sandbox/detect-sandbox";
import { buildMessages, type ToolCallRef } from "./build-messages";
import { acquireLease, releaseLease, renewLease } from "./lease";
import { readGates } from "./mode-gates";
import { isScriptExhausted } from "./models/scripted-model";
import { resolveModel } from "./models/resolve-model";
import { runToolCall } from "./run-tool-call";
import { loadSessionContext } from "./session-context";
import { systemPrompt } from "./system-prompt";
import { modelTools } from "./tool-registry";
import { abortSignalFor, clearAbort } from "./turn-signals";

function priorCalls(events: readonly SessionEvent[]): ToolCallRef[] {
  return events.flatMap((e) => (e.type === "tool.called" ? [{ callId: e.payload.callId, tool: e.payload.tool, input: e.payload.input }] : []));
}

function stepsInTurn(events: readonly SessionEvent[], turnId: string): number {
  let start = events.length;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.type === "turn.started" && e.payload.turnId === turnId) {
      start = i;
      break;
    }
  }
  return events.slice(start).filter((e) => e.type === "message.assistant").length;
}

/** One pass: run pending calls, then model steps, until the turn ends or waits. Returns when nothing more can run now. */
async function runSteps(db: Db, sessionId: string): Promise<void> {
  const env = getEnv();
  const sandbox = detectSandbox();
  for (;;) {
    const events = await readEvents(db, sessionId);
    const state = foldEvents(events);
    const turnId = state.openTurnId;
    if (!turnId || state.pendingPermissions.length > 0 || state.pendingReview) return;
    const session = await loadSessionContext(db, sessionId);
    const gates = await readGates(db);
    const signal = abortSignalFor(sessionId, turnId);
    const { messages, pending, modelCalls } = buildMessages(events);

    if (pending.length > 0) {
      const run = {
        db, session, mode: state.mode, gates, turnId, previous: priorCalls(events).filter((c) => !pending.some((p) => p.callId === c.callId)),
        ctx: {
          sessionId, workspace: session.workspace, mode: state.mode, readOnly: state.mode === "plan" || session.agent.readOnly,
          planFile: null, sandbox, signal,
          runtime: { db, agent: session.agent.name, model: session.model, isSubagent: session.parentId !== null, drive: (id: string) => driveSession(db, id) },
        },
      };
      for (const call of pending) {
        if ((await runToolCall(run, call)) === "suspended") return;
        run.previous.push(call);
      }
      continue;
    }

    if (stepsInTurn(events, turnId) >= env.PLANGATE_MAX_STEPS) {
      await appendEvents(db, sessionId, [{ type: "turn.ended", payload: { turnId, reason: "max_steps" } }], { guard: (s) => s.openTurnId === turnId });
      return;
    }
    if (session.model === "scripted" && isScriptExhausted(session.script, modelCalls)) {
      await appendEvents(db, sessionId, [{ type: "turn.ended", payload: { turnId, reason: "done" } }], { guard: (s) => s.openTurnId === turnId });
      return;
    }
    const model = resolveModel(session.model, { env, script: session.script, stepIndex: modelCalls });
    const result = await generateText({
      model,
      system: systemPrompt({ agent: session.agent, mode: state.mode, workspace: session.workspace, sandbox, isSubagent: session.parentId !== null }),
      messages,
      tools: modelTools(session.rules),
      abortSignal: signal,
    });
    const step: NewEvent[] = [{ type: "message.assistant", payload: { text: result.text, step: modelCalls, model: session.model } }];
    for (const c of result.toolCalls) step.push({ type: "tool.called", payload: { callId: c.toolCallId, tool: c.toolName, input: c.input } });
    if (result.toolCalls.length === 0) step.push({ type: "turn.ended", payload: { turnId, reason: "done" } });
    await appendEvents(db, sessionId, step, { guard: (s) => s.openTurnId === turnId });
  }
}

/**
 * Runs a session's open turn if this process can take its lease. Holds nothing while the turn waits: a reply,
 * an answer or a child's end calls this again, in whatever process receives it.
 */
export async function driveSession(db: Db, sessionId: string): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const token = await acquireLease(db, sessionId);
    if (!token) return;
    const renew = setInterval(() => void renewLease(db, sessionId, token).catch(() => undefined), 10_000);
    renew.unref();
    try {
      await runSteps(db, sessionId);
    } catch (error) {
      if (!(error instanceof StaleAppend) && !isAbortError(error)) await failTurn(db, sessionId, error);
    } finally {
      clearInterval(renew);
      await releaseLease(db, sessionId, token);
    }
    // A reply may have landed while we held the lease (its own drive found the lease taken): look again.
    if (!(await runnable(db, sessionId))) break;
  }
  await afterTurn(db, sessionId);
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || /abort/i.test(error.message));
}

async function failTurn(db: Db, sessionId: string, error: unknown): Promise<void> {
  const state = foldEvents(await readEvents(db, sessionId));
  const turnId = state.openTurnId;
  if (!turnId) return;
  const message = error instanceof Error ? error.message : String(error);
  await appendEvents(db, sessionId, [
    { type: "notice", payload: { level: "warning", text: `The turn stopped on an error: ${message}` } },
    { type: "turn.ended", payload: { turnId, reason: "error" } },
  ], { guard: (s) => s.openTurnId === turnId }).catch(() => undefined);
}

async function runnable(db: Db, sessionId: string): Promise<boolean> {
  const state = foldEvents(await readEvents(db, sessionId));
  return state.openTurnId !== null && state.pendingPermissions.length === 0 && state.pendingReview === null && state.waitingOn === null;
}

/** When a subagent's turn is over, its parent's task call can finish: wake the parent. */
async function afterTurn(db: Db, sessionId: string): Promise<void> {
  const state = foldEvents(await readEvents(db, sessionId));
  if (state.openTurnId) return;
  clearAbort(sessionId);
  if (!state.parentId) return;
  const parent = foldEvents(await readEvents(db, state.parentId));
  if (parent.waitingOn?.on === sessionId) void driveSession(db, state.parentId);
}
