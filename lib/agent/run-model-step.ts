import type { LanguageModelV3Message } from "@ai-sdk/provider";
import type { Db } from "../db/client";
import { getEnv } from "../env";
import { appendEvents, StaleAppend } from "../session/append-events";
import { publishDraft } from "../session/bus";
import type { NewEvent, SessionEvent, Usage } from "../session/log/events";
import { addUsage, type SessionState } from "../session/log/fold";
import type { SandboxInfo } from "../tools/types";
import { compactSession } from "../session/compact-session";
import { modeSwitchNotice, planModeSection } from "../plan/plan-prompt";
import { callModel, ModelGaveUp, StoppedMidStream } from "../model/call-model";
import { classifyModelError } from "../model/model-errors";
import { resolveModel } from "../model/resolve-model";
import type { SessionContext } from "./session-context";
import { systemPrompt } from "./system-prompt";
import { modelTools } from "./tool-registry";

/** Tool calls taken from one model step. */
export const MAX_CALLS_PER_STEP = 100;

/** Time spent in the model call (the provider's doGenerate), for the harness benchmark. */
export const stepMetrics = { modelMs: [] as number[] };

export type StepInput = {
  sessionId: string;
  session: SessionContext;
  state: SessionState;
  turnId: string;
  messages: LanguageModelV3Message[];
  /** The last seq of the log the messages were built from (recorded on the step, see message.assistant). */
  basis: number;
  modelCalls: number;
  contextChars: number;
  sandbox: SandboxInfo;
  signal: AbortSignal;
  /** Set once this drive compacted for a context overflow; cleared by a step that went through. */
  overflow: { compacted: boolean };
};

const tokens = (u: Usage) => u.input + u.output;
const some = (u: Usage) => (tokens(u) > 0 ? u : undefined);

/** The turn's end, with what it used when the provider reported usage. */
export function turnEnded(
  turnId: string,
  reason: "done" | "error" | "max_steps" | "max_tokens",
  usage: Usage,
): NewEvent {
  const used = some(usage);
  return { type: "turn.ended", payload: used ? { turnId, reason, usage: used } : { turnId, reason } };
}

/**
 * One model request and its logged step. Returns the appended events, or null when the loop should look at
 * the log again (the turn ended, or the conversation was compacted and the request is to be made anew).
 */
export async function runModelStep(db: Db, s: StepInput): Promise<SessionEvent[] | null> {
  const env = getEnv();
  const { sessionId, session, state, turnId } = s;
  const guard = { guard: (x: SessionState) => x.openTurnId === turnId };
  const max = env.PLANGATE_MAX_TURN_TOKENS;
  if (max !== undefined && tokens(state.turnUsage) >= max) {
    const text = `This turn used ${tokens(state.turnUsage)} tokens, past PLANGATE_MAX_TURN_TOKENS (${max}); it was ended before the next model request. Send a message to go on.`;
    await appendEvents(
      db,
      sessionId,
      [{ type: "notice", payload: { level: "warning", text } }, turnEnded(turnId, "max_tokens", state.turnUsage)],
      guard,
    );
    return null;
  }
  if (s.contextChars > env.PLANGATE_CONTEXT_CHARS) {
    const { compacted } = await compactSession(db, sessionId, { duringTurn: turnId });
    if (compacted) return null;
  }
  const notice = modeSwitchNotice(state);
  const planSection = planModeSection(state);
  const started = performance.now();
  let result: Awaited<ReturnType<typeof callModel>>;
  try {
    result = await callModel({
      model: resolveModel(session.model, { env, script: session.script, stepIndex: s.modelCalls }),
      system:
        systemPrompt({
          agent: session.agent,
          mode: state.mode,
          workspace: session.workspace,
          sandbox: s.sandbox,
          isSubagent: session.parentId !== null,
        }) + (planSection ? `\n\n${planSection}` : ""),
      messages: notice ? [...s.messages, { role: "user", content: [{ type: "text", text: notice }] }] : s.messages,
      tools: modelTools(session.toolRules, state.team !== null),
      abortSignal: s.signal,
      onText: draftPublisher(sessionId),
      attempts: env.PLANGATE_MODEL_ATTEMPTS,
      retryBaseMs: env.PLANGATE_RETRY_BASE_MS,
      onRetry: async (r) => {
        publishDraft(sessionId, "");
        const retryAt = new Date(Date.now() + r.delayMs).toISOString();
        await appendEvents(
          db,
          sessionId,
          [{ type: "model.retrying", payload: { turnId, attempt: r.attempt, of: r.of, retryAt, reason: r.reason } }],
          guard,
        );
      },
    });
  } catch (error) {
    if (error instanceof StoppedMidStream) await logPartial(db, sessionId, error.text, s);
    if (classifyModelError(error).kind !== "overflow") throw error;
    // The conversation no longer fits: summarise it (the plan and its file are carried over) and ask again, once.
    if (!s.overflow.compacted) {
      s.overflow.compacted = true;
      const { compacted } = await compactSession(db, sessionId, { duringTurn: turnId });
      if (compacted) {
        await appendEvents(
          db,
          sessionId,
          [
            {
              type: "notice",
              payload: {
                level: "info",
                text: "The conversation did not fit the model's context window; it was compacted and the request is made again.",
              },
            },
          ],
          guard,
        );
        return null;
      }
    }
    throw new ModelGaveUp(
      `the conversation does not fit the model's context window, even compacted (${error instanceof Error ? error.message : "context overflow"}). Start a new session from the plan, or pick a model with a larger window.`,
      { cause: error },
    );
  }
  s.overflow.compacted = false;
  if (stepMetrics.modelMs.length < 10_000) stepMetrics.modelMs.push(performance.now() - started);
  const usage = result.usage;
  const step: NewEvent[] = [
    {
      type: "message.assistant",
      payload: {
        text: result.text,
        step: s.modelCalls,
        model: session.model,
        mode: state.mode,
        basis: s.basis,
        ...(usage ? { usage } : {}),
      },
    },
  ];
  // A model may not flood a step: calls past the limit are dropped (and said so), never logged or run.
  const calls = result.toolCalls.slice(0, MAX_CALLS_PER_STEP);
  for (const c of calls)
    step.push({ type: "tool.called", payload: { callId: c.toolCallId, tool: c.toolName, input: c.input } });
  if (calls.length < result.toolCalls.length) {
    step.push({
      type: "notice",
      payload: {
        level: "warning",
        text: `The model asked for ${result.toolCalls.length} tool calls in one step; only the first ${MAX_CALLS_PER_STEP} were taken.`,
      },
    });
  }
  // A text-only step ends the turn, unless a message arrived while the model answered: the next step answers it.
  const ends = (x: SessionState) => result.toolCalls.length === 0 && (x.lastUserSeq ?? 0) <= s.basis;
  const last = (x: SessionState) => turnEnded(turnId, "done", usage ? addUsage(x.turnUsage, usage) : x.turnUsage);
  return (await appendEvents(db, sessionId, (x) => (ends(x) ? [...step, last(x)] : step), guard)).events;
}

/** The text that streamed before the person stopped the turn, logged once the turn has ended, marked partial. */
async function logPartial(db: Db, sessionId: string, text: string, s: StepInput): Promise<void> {
  const partial: NewEvent = {
    type: "message.assistant",
    payload: { text, step: s.modelCalls, model: s.session.model, mode: s.state.mode, partial: true, basis: s.basis },
  };
  // Only after an abort (the turn is closed); a lease lost to another instance leaves the turn to it.
  await appendEvents(db, sessionId, [partial], { guard: (x) => x.openTurnId === null }).catch((error: unknown) => {
    if (!(error instanceof StaleAppend)) throw error;
  });
}

/** Streams a step's text to open pages, at most every 100 ms (the last draft is always sent with the step's event). */
function draftPublisher(sessionId: string): (text: string) => void {
  let last = 0;
  return (text) => {
    const now = Date.now();
    if (now - last < 100) return;
    last = now;
    publishDraft(sessionId, text);
  };
}
