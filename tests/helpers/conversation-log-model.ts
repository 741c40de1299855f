// A reference model of a session's conversation view (lib/agent/conversation-view.ts) for its property tests: a
// deterministic random log of plausible events, and what a step should read computed again from the whole log.
import { expect } from "vitest";
import type { NewEvent, SessionEvent } from "../../lib/session/log/events";
import { foldEvents } from "../../lib/session/log/fold";
import { openCalls } from "../../lib/session/open-calls";
import { issuedModes, startedUnfinished } from "../../lib/agent/issued-modes";
import { previousCalls, steps, viewMessages, type ConversationView } from "../../lib/agent/conversation-view";

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MODES = ["default", "plan", "acceptEdits"] as const;
const TOOLS = ["read", "bash", "edit", "enter_plan_mode", "grep"] as const;

/** A plausible random log: turns of model steps with calls, asks, starts, results, user messages, mode changes, compactions. */
export function randomLog(seed: number, length: number): SessionEvent[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const out: NewEvent[] = [
    {
      type: "session.created",
      payload: { title: "t", workspace: "/w", agent: "build", model: "scripted", mode: "default" },
    },
  ];
  let open: string[] = [];
  let turn: string | null = null;
  let n = 0;
  let mode: (typeof MODES)[number] = "default";
  let lastStep = 0;
  while (out.length < length) {
    const k = r();
    if (!turn) {
      turn = `trn_${n++}`;
      out.push(
        { type: "message.user", payload: { text: `ask ${n}` } },
        { type: "turn.started", payload: { turnId: turn } },
      );
    } else if (open.length > 0 && k < 0.55) {
      const callId = open.shift()!;
      if (r() < 0.3)
        out.push({
          type: "permission.asked",
          payload: { requestId: `per_${n++}`, tool: "bash", permission: "bash", patterns: ["x"], callId },
        });
      if (r() < 0.5) out.push({ type: "tool.started", payload: { callId } });
      if (r() < 0.9)
        out.push({
          type: "tool.result",
          payload: { callId, tool: "read", ok: r() < 0.8, output: r() < 0.5 ? `out ${n}` : { lines: n }, error: "no" },
        });
    } else if (k < 0.62) {
      out.push({ type: "message.user", payload: { text: `meanwhile ${n++}` } });
    } else if (k < 0.67) {
      const to = pick(MODES);
      out.push({
        type: "mode.changed",
        payload: { from: mode, to, prePlanMode: null, cause: pick(["user", "command", "tool", "review"] as const) },
      });
      mode = to;
    } else if (k < 0.7 && open.length === 0) {
      out.push({ type: "compaction", payload: { summary: `summary ${n++}`, fromSeq: 1, toSeq: out.length } });
    } else if (k < 0.76) {
      out.push({ type: "turn.ended", payload: { turnId: turn, reason: "done" } });
      turn = null;
      open = [];
    } else {
      // The request was built from some point since the last step (messages after it were written meanwhile);
      // some steps come from logs older than basis.
      const basis = r() < 0.8 ? lastStep + Math.floor(r() * (out.length - lastStep + 1)) : undefined;
      out.push({
        type: "message.assistant",
        payload: { text: r() < 0.7 ? `step ${n}` : "", mode: r() < 0.9 ? mode : undefined, basis },
      });
      lastStep = out.length;
      open = [];
      const calls = Math.floor(r() * 4);
      for (let i = 0; i < calls; i++) {
        const callId = `call_${n++}`;
        out.push({
          type: "tool.called",
          payload: { callId, tool: pick(TOOLS), input: r() < 0.3 ? { path: "same" } : { path: `f${n}` } },
        });
        open.push(callId);
      }
    }
  }
  return out.map((e, i) => ({ ...e, seq: i + 1, at: "2026-12-01T00:00:00.000Z" }) as SessionEvent);
}

// The whole-log rebuild as it was before the incremental view: an independent reference for the messages.
function reference(events: readonly SessionEvent[], planReference: string | null) {
  type M = { role: string; content: unknown[] };
  const messages: M[] = [];
  const user = (text: string): M => ({ role: "user", content: [{ type: "text", text }] });
  let open = new Map<string, { callId: string; tool: string; input: unknown }>();
  let assistant: unknown[] | null = null;
  let results: unknown[] = [];
  let deferred: string[] = [];
  // user messages closed since the last step, by seq: a step built before them sends them after its results
  let lately: { seq: number; m: M; text: string }[] = [];
  let modelCalls = 0;
  const flush = () => {
    if (results.length > 0) messages.push({ role: "tool", content: results });
    results = [];
    if (open.size === 0) messages.push(...deferred.map(user)), (deferred = []);
  };
  const close = () => {
    if (assistant && assistant.length > 0) messages.push({ role: "assistant", content: assistant });
    assistant = null;
  };
  for (const e of events) {
    if (e.type === "message.user") {
      close();
      if (open.size > 0) deferred.push(e.payload.text);
      else {
        flush();
        const m = user(e.payload.text);
        messages.push(m);
        lately.push({ seq: e.seq, m, text: e.payload.text });
      }
    } else if (e.type === "compaction") {
      close();
      messages.length = 0;
      results = [];
      deferred = [];
      lately = [];
      open = new Map();
      messages.push(
        user(`Summary of the conversation so far (older messages were compacted):\n\n${e.payload.summary}`),
      );
      if (planReference) messages.push(user(planReference));
    } else if (e.type === "message.assistant") {
      close();
      flush();
      const basis = e.payload.basis;
      const late = basis === undefined ? [] : lately.filter((u) => u.seq > basis);
      const kept = messages.filter((m) => !late.some((u) => u.m === m));
      messages.length = 0;
      messages.push(...kept);
      deferred.push(...late.map((u) => u.text));
      lately = [];
      modelCalls++;
      open = new Map();
      assistant = e.payload.text ? [{ type: "text", text: e.payload.text }] : [];
    } else if (e.type === "tool.called") {
      (assistant ??= []).push({
        type: "tool-call",
        toolCallId: e.payload.callId,
        toolName: e.payload.tool,
        input: e.payload.input ?? {},
      });
      open.set(e.payload.callId, { callId: e.payload.callId, tool: e.payload.tool, input: e.payload.input });
    } else if (e.type === "tool.result") {
      close();
      if (!open.delete(e.payload.callId)) continue;
      const value = e.payload.ok
        ? typeof e.payload.output === "string"
          ? e.payload.output
          : JSON.stringify(e.payload.output ?? "")
        : (e.payload.error ?? "failed");
      results.push({
        type: "tool-result",
        toolCallId: e.payload.callId,
        toolName: e.payload.tool,
        output: { type: e.payload.ok ? "text" : "error-text", value },
      });
      if (open.size === 0) flush();
    }
  }
  close();
  const pending = [...open.values()];
  if (pending.length === 0) flush();
  else if (results.length > 0) messages.push({ role: "tool", content: results });
  return { messages, pending, modelCalls };
}

function stepsReference(events: readonly SessionEvent[], turnId: string): number {
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

/** The prompt's facts by scanning the log backwards, as the driver did before the fold kept them. */
function promptReference(events: readonly SessionEvent[]) {
  let inPlan = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === "mode.changed" && e.payload.to === "plan") break;
    if (e.type === "message.assistant") inPlan++;
  }
  let described: string | null = null;
  let causeSince: string | null = null;
  for (let i = events.length - 1; i >= 0 && described === null; i--) {
    const e = events[i]!;
    if (e.type === "message.assistant") described = e.payload.mode ?? "";
    else if (e.type === "mode.changed" && causeSince === null) causeSince = e.payload.cause;
  }
  return { inPlan, described, causeSince: described === null ? null : causeSince };
}

function contextReference(events: readonly SessionEvent[]): number {
  const talk = new Set(["message.user", "message.assistant", "tool.called", "tool.result"]);
  return events.reduce(
    (n, e) =>
      e.type === "compaction" ? e.payload.summary.length : talk.has(e.type) ? n + JSON.stringify(e.payload).length : n,
    0,
  );
}

/** Everything a step reads from the view, compared with what the whole log gives. */
export function expectMatchesLog(view: ConversationView, events: readonly SessionEvent[]): void {
  const ref = reference(events, "PLAN REF");
  const got = viewMessages(view, "PLAN REF");
  expect(got).toEqual(ref);
  // compaction asks the session layer's own reading of the same thing
  expect(openCalls(events)).toEqual(got.pending.map((p) => p.callId));
  expect(view.state).toEqual(foldEvents(events));
  expect(view.contextChars).toBe(contextReference(events));
  const { inPlan, described, causeSince, modelCalls } = steps(view);
  const prompt = promptReference(events);
  expect({ inPlan, described, causeSince: described === null ? null : causeSince }).toEqual(prompt);
  expect(modelCalls).toBe(events.filter((e) => e.type === "message.assistant").length);
  const issued = issuedModes(events);
  const cut = startedUnfinished(events);
  const asked = new Set(
    events.flatMap((e) => (e.type === "permission.asked" && e.payload.callId ? [e.payload.callId] : [])),
  );
  for (const p of got.pending) {
    expect(view.issued.get(p.callId)).toBe(issued.get(p.callId));
    expect(view.started.has(p.callId)).toBe(cut.has(p.callId));
    expect(view.asked.has(p.callId)).toBe(asked.has(p.callId));
  }
  // The doom-loop check looks back as far as the model can see: to the last compaction.
  const compacted = events.findLastIndex((e) => e.type === "compaction");
  const calls = events
    .slice(compacted + 1)
    .flatMap((e) =>
      e.type === "tool.called" ? [{ callId: e.payload.callId, tool: e.payload.tool, input: e.payload.input }] : [],
    );
  const before = calls.filter((c) => !got.pending.some((p) => p.callId === c.callId));
  expect(previousCalls(view, got.pending).slice(-2)).toEqual(before.slice(-2));
  const turnId = view.state.openTurnId;
  if (turnId) expect(steps(view).inTurn).toBe(stepsReference(events, turnId));
}
