import type { Db } from "../db/client";
import type { ModeGates, PermissionMode, Ruleset } from "../permission";
import { appendEvents } from "../session/append-events";
import { ToolError, ToolSuspended, type PermissionAsk, type ToolContext } from "../tools/types";
import type { ToolCallRef } from "./build-messages";
import { isDoomLoop, judgeCall, onceKey } from "./judge-call";
import { grantRules } from "../session/grant-store";
import { listRequests, planRequests } from "../session/permission-store";
import type { SessionContext } from "./session-context";
import { findTool } from "./tool-registry";

export type CallOutcome = "done" | "suspended";

type Run = {
  db: Db;
  session: SessionContext;
  ctx: Omit<ToolContext, "callId">;
  mode: PermissionMode;
  gates: ModeGates;
  previous: ToolCallRef[];
  turnId: string;
  /** Calls that have permission requests in the log; others need no request lookup. */
  askedCalls: ReadonlySet<string>;
};

async function finish(run: Run, call: ToolCallRef, result: { ok: true; output: string; metadata?: unknown } | { ok: false; error: string }): Promise<CallOutcome> {
  const payload = result.ok
    ? { callId: call.callId, tool: call.tool, ok: true, output: result.output, ...(result.metadata ? { metadata: result.metadata } : {}) }
    : { callId: call.callId, tool: call.tool, ok: false, error: result.error };
  await appendEvents(run.db, run.session.id, [{ type: "tool.result", payload }], {
    // An abort that landed while the tool ran ended the turn: its result is not part of it any more.
    guard: (s) => s.openTurnId === run.turnId,
  });
  return "done";
}

/** Judges one pending call through the gate and runs it, or records why not; "suspended" means it now waits. */
export async function runToolCall(run: Run, call: ToolCallRef): Promise<CallOutcome> {
  const def = findTool(call.tool);
  if (!def) return finish(run, call, { ok: false, error: `Unknown tool "${call.tool}".` });
  const parsed = def.inputSchema.safeParse(call.input);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
    return finish(run, call, { ok: false, error: `Invalid input for ${call.tool}: ${detail}` });
  }
  const ctx: ToolContext = { ...run.ctx, callId: call.callId };
  let asks: PermissionAsk[];
  try {
    asks = await def.asks(parsed.data, ctx);
  } catch (error) {
    return finish(run, call, { ok: false, error: error instanceof Error ? error.message : String(error) });
  }
  if (isDoomLoop(run.previous, call)) asks = [...asks, { permission: "doom_loop", patterns: [call.tool], always: [call.tool], readOnly: true, metadata: { input: call.input } }];

  const requests = run.askedCalls.has(call.callId) ? await listRequests(run.db, { sessionId: run.session.id, toolCallId: call.callId }) : [];
  const rejected = requests.find((r) => r.status === "reject");
  if (rejected) return finish(run, call, { ok: false, error: `The user rejected this ${rejected.permission} call${rejected.message ? `: ${rejected.message}` : "."}` });
  if (requests.some((r) => r.status === "pending")) return "suspended";
  const allowedOnce = new Set(requests.flatMap((r) => r.patterns.map((p) => onceKey(r.permission, p))));

  const judge = (grants: Ruleset) => judgeCall({ asks, agentRules: run.session.rules, grantRules: grants, mode: run.mode, gates: run.gates, allowedOnce });
  // Grants can only turn an ask into an allow, so they are read only when something would ask.
  let judgement = judge([]);
  if (judgement.kind === "ask") judgement = judge(await grantRules(run.db, run.session.id, run.session.workspace));
  if (judgement.kind === "deny") return finish(run, call, { ok: false, error: `Permission denied: ${judgement.reason}` });
  if (judgement.kind === "ask") {
    const planned = planRequests(run.session.id, call.callId, call.tool, judgement.asks);
    await appendEvents(run.db, run.session.id, planned.events, { also: planned.write, guard: (s) => s.openTurnId === run.turnId });
    return "suspended";
  }
  try {
    const out = await def.execute(parsed.data, { ...ctx, approval: { asWritten: judgement.asWritten } });
    return finish(run, call, { ok: true, output: out.output, metadata: out.metadata });
  } catch (error) {
    if (error instanceof ToolSuspended) return "suspended";
    if (error instanceof ToolError) return finish(run, call, { ok: false, error: error.message });
    if (ctx.signal.aborted) return "suspended";
    return finish(run, call, { ok: false, error: `The tool failed: ${error instanceof Error ? error.message : String(error)}` });
  }
}
