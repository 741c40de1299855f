import type { LanguageModelV3Message } from "@ai-sdk/provider";
import type { PermissionMode } from "../permission";
import type { SessionEvent } from "../session/log/events";
import { foldEvents, noSteps, type SessionState, type StepFacts } from "../session/log/fold";

export type ToolCallRef = { callId: string; tool: string; input: unknown };

type AssistantPart =
  | { type: "text"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown };
type ToolPart = {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: { type: "text" | "error-text"; value: string };
};

/** Calls kept for the doom-loop check: the last two that are not pending, whatever one step issued. */
const RECENT_CALLS = 256;

/**
 * What a step needs from a session's log, folded event by event: the conversation for the model, the calls
 * still open, and the facts the gate needs about them (the counts the prompt needs are in state.steps).
 * Extending it with the events after `lastSeq` gives exactly what folding the whole log gives (pinned by
 * conversation-view.test.ts), so a step costs the same on a session's last day as on its first. Nothing in
 * it reaches back past the last compaction, so it can also be rebuilt from there (seedView). Owned by one
 * driver at a time: extendView updates it in place.
 */
export type ConversationView = {
  lastSeq: number;
  state: SessionState;
  /** Messages closed so far; after a compaction the first is its summary. */
  closed: LanguageModelV3Message[];
  /** The plan reference goes right after a compaction summary (computed when messages are taken). */
  compacted: boolean;
  open: Map<string, ToolCallRef>;
  assistant: AssistantPart[] | null;
  results: ToolPart[];
  /** User messages written while calls were open: delivered after their results. */
  deferred: string[];
  /**
   * User messages closed since the last model step, with their seq and place in `closed`: a step whose request
   * was built before one of them (its `basis`) moves it to `deferred`, after that step's results.
   */
  lately: { seq: number; at: number; text: string }[];
  /** Mode each open step's call was issued in (plan after an enter_plan_mode in the same step). */
  issued: Map<string, PermissionMode>;
  issuingMode: PermissionMode | null;
  /** Calls of the current step with permission requests in the log. */
  asked: Set<string>;
  /** Calls whose start is logged without a result: cut by a crash or an abort. */
  started: Set<string>;
  /** Calls since the last compaction (the model sees nothing older), for the doom-loop check. */
  recentCalls: ToolCallRef[];
  /** Size of the conversation since the last compaction, in characters of payload. */
  contextChars: number;
};

const TALK = new Set(["message.user", "message.assistant", "tool.called", "tool.result"]);

export function emptyView(): ConversationView {
  return {
    lastSeq: 0,
    state: foldEvents([]),
    closed: [],
    compacted: false,
    open: new Map(),
    assistant: null,
    results: [],
    deferred: [],
    lately: [],
    issued: new Map(),
    issuingMode: null,
    asked: new Set(),
    started: new Set(),
    recentCalls: [],
    contextChars: 0,
  };
}

/**
 * Where a view can be rebuilt from, given the session's state (its projection): the last compaction, since
 * nothing before it reaches the model. Null when the state predates step facts: fold the whole log then.
 */
export function rebuildFrom(state: SessionState): number | null {
  return state.steps ? Math.max(1, state.steps.compactedAt) : null;
}

/** An empty view that takes the events from `rebuildFrom(state)` on, with the state already folded to its end. */
export function seedView(state: SessionState): ConversationView {
  return { ...emptyView(), state, lastSeq: (rebuildFrom(state) ?? 1) - 1 };
}

const user = (text: string): LanguageModelV3Message => ({ role: "user", content: [{ type: "text", text }] });

function resultText(output: unknown): string {
  return typeof output === "string" ? output : JSON.stringify(output ?? "");
}

function closeAssistant(v: ConversationView): void {
  if (v.assistant && v.assistant.length > 0) v.closed.push({ role: "assistant", content: v.assistant });
  v.assistant = null;
}

function flushResults(v: ConversationView): void {
  if (v.results.length > 0) v.closed.push({ role: "tool", content: v.results });
  v.results = [];
  if (v.open.size === 0) {
    for (const text of v.deferred) v.closed.push(user(text));
    v.deferred = [];
  }
}

/**
 * A message written while this step's request was in flight (after its basis) was not in it: it goes after the
 * step's results, where the model first reads it. Logs from before `basis` was recorded keep their order.
 */
function deferLate(v: ConversationView, basis: number | undefined): void {
  const late = basis === undefined ? [] : v.lately.filter((u) => u.seq > basis);
  v.lately = [];
  if (late.length === 0) return;
  for (const u of [...late].reverse()) v.closed.splice(u.at, 1);
  v.deferred.push(...late.map((u) => u.text));
}

/** A new model step: what was open belongs to the last one and is never pending again. */
function newStep(v: ConversationView): void {
  v.open = new Map();
  v.issued = new Map();
  v.asked = new Set();
  v.started = new Set();
}

function conversation(v: ConversationView, e: SessionEvent): void {
  switch (e.type) {
    case "message.user":
      closeAssistant(v);
      if (v.open.size > 0) v.deferred.push(e.payload.text);
      else {
        flushResults(v);
        v.lately.push({ seq: e.seq, at: v.closed.length, text: e.payload.text });
        v.closed.push(user(e.payload.text));
      }
      break;
    case "compaction":
      // Older turns are replaced by their summary (the log keeps them); compaction only happens between steps.
      v.closed = [user(`Summary of the conversation so far (older messages were compacted):\n\n${e.payload.summary}`)];
      v.compacted = true;
      v.recentCalls = [];
      v.assistant = null;
      v.results = [];
      v.deferred = [];
      v.lately = [];
      newStep(v);
      break;
    case "message.assistant":
      closeAssistant(v);
      flushResults(v);
      deferLate(v, e.payload.basis);
      newStep(v);
      v.assistant = e.payload.text ? [{ type: "text", text: e.payload.text }] : [];
      break;
    case "tool.called": {
      const call = { callId: e.payload.callId, tool: e.payload.tool, input: e.payload.input };
      (v.assistant ??= []).push({
        type: "tool-call",
        toolCallId: call.callId,
        toolName: call.tool,
        input: call.input ?? {},
      });
      v.open.set(call.callId, call);
      break;
    }
    case "tool.result":
      closeAssistant(v);
      if (!v.open.delete(e.payload.callId)) break;
      v.results.push({
        type: "tool-result",
        toolCallId: e.payload.callId,
        toolName: e.payload.tool,
        output: e.payload.ok
          ? { type: "text", value: resultText(e.payload.output) }
          : { type: "error-text", value: e.payload.error ?? "failed" },
      });
      if (v.open.size === 0) flushResults(v);
      break;
    default:
      break;
  }
}

/** The facts beside the conversation: issued modes, asks, starts, recent calls, its size. */
function facts(v: ConversationView, e: SessionEvent): void {
  if (e.type === "compaction") v.contextChars = e.payload.summary.length;
  else if (TALK.has(e.type)) v.contextChars += JSON.stringify(e.payload).length;
  switch (e.type) {
    case "message.assistant":
      v.issuingMode = e.payload.mode ?? null;
      break;
    case "tool.called":
      if (v.issuingMode !== null) {
        v.issued.set(e.payload.callId, v.issuingMode);
        if (e.payload.tool === "enter_plan_mode") v.issuingMode = "plan";
      }
      v.recentCalls.push({ callId: e.payload.callId, tool: e.payload.tool, input: e.payload.input });
      if (v.recentCalls.length > 2 * RECENT_CALLS) v.recentCalls = v.recentCalls.slice(-RECENT_CALLS);
      break;
    case "permission.asked":
      if (e.payload.callId) v.asked.add(e.payload.callId);
      break;
    case "tool.started":
      v.started.add(e.payload.callId);
      break;
    case "tool.result":
      v.started.delete(e.payload.callId);
      break;
    default:
      break;
  }
}

/** Folds events (in seq order, after view.lastSeq) into the view; returns it. */
export function extendView(v: ConversationView, events: readonly SessionEvent[]): ConversationView {
  for (const e of events) {
    if (e.seq <= v.lastSeq) continue;
    facts(v, e);
    conversation(v, e);
    v.lastSeq = e.seq;
  }
  v.state = foldEvents(
    events.filter((e) => e.seq > v.state.lastSeq),
    Infinity,
    v.state,
  );
  return v;
}

/**
 * The conversation as the model is sent it, and the calls still waiting for results. Leaves the view as it
 * was: an open step may still grow. `planReference` is placed right after a compaction summary.
 */
export function viewMessages(
  v: ConversationView,
  planReference?: string | null | (() => string | null),
): { messages: LanguageModelV3Message[]; pending: ToolCallRef[]; modelCalls: number } {
  const messages = [...v.closed];
  if (v.compacted) {
    const reference = typeof planReference === "function" ? planReference() : planReference;
    if (reference) messages.splice(1, 0, user(reference));
  }
  if (v.assistant && v.assistant.length > 0) messages.push({ role: "assistant", content: [...v.assistant] });
  const pending = [...v.open.values()];
  if (v.results.length > 0) messages.push({ role: "tool", content: [...v.results] });
  if (pending.length === 0) for (const text of v.deferred) messages.push(user(text));
  return { messages, pending, modelCalls: steps(v).modelCalls };
}

/** The view's step counts (a view's state is always folded from a log or seeded from a state that has them). */
export function steps(v: ConversationView): StepFacts {
  return v.state.steps ?? noSteps;
}

/** Calls before the pending ones, oldest first (enough of them for the doom-loop check). */
export function previousCalls(v: ConversationView, pending: readonly ToolCallRef[]): ToolCallRef[] {
  const open = new Set(pending.map((p) => p.callId));
  return v.recentCalls.filter((c) => !open.has(c.callId));
}
