import type { Db } from "../db/client";
import { getEnv } from "../env";
import { workspaceProblem } from "../workspace/check-workspace";
import type { ModeGates, PermissionMode, Ruleset } from "../permission";
import { appendEvents } from "../session/append-events";
import { ToolError, ToolSuspended, type PermissionAsk, type ToolContext } from "../tools/types";
import type { ToolCallRef } from "./build-messages";
import { judgeCall, onceKey } from "../permission";
import { isDoomLoop } from "./doom-loop";
import { grantRuleset, grantRules } from "../session/grant-store";
import { listRequests, planRequests, type PermissionRequestView } from "../session/permission-store";
import type { SessionContext } from "./session-context";
import { findTool } from "./tool-registry";
import { markHeld } from "../review/rules/held-asks";
import type { HeldRule } from "../review/rules/review-policy";

export type CallOutcome = "done" | "suspended";

type Run = {
  db: Db;
  session: SessionContext;
  ctx: Omit<ToolContext, "callId">;
  /** The mode this call is judged in: the stricter of the one it was issued in and the one in force now. */
  mode: PermissionMode;
  /** The call was issued in plan mode but plan mode has ended since (it sat beside exit_plan_mode). */
  issuedInPlan?: boolean;
  gates: ModeGates;
  previous: ToolCallRef[];
  turnId: string;
  /** Calls that have permission requests in the log; others need no request lookup. */
  askedCalls: ReadonlySet<string>;
  /** A subagent's ancestors now: the call is judged by their rights too. */
  ancestors?: readonly { rules: Ruleset; mode: PermissionMode }[];
  /** Paths the session (or an ancestor) is held to, and whom each belongs to (issue 41). */
  held?: readonly HeldRule[];
};

type Result = { ok: true; output: string; metadata?: unknown } | { ok: false; error: string };

/** started: the call's start is in the log, so its result (or interruption) is logged even after an abort. */
async function finish(run: Run, call: ToolCallRef, result: Result, started = false): Promise<CallOutcome> {
  const payload = result.ok
    ? {
        callId: call.callId,
        tool: call.tool,
        ok: true,
        output: result.output,
        ...(result.metadata ? { metadata: result.metadata } : {}),
      }
    : { callId: call.callId, tool: call.tool, ok: false, error: result.error };
  await appendEvents(run.db, run.session.id, [{ type: "tool.result", payload }], {
    // A call that never started belongs to its turn: an abort that landed meanwhile ended it, and it is dropped.
    ...(started ? {} : { guard: (s: { openTurnId: string | null }) => s.openTurnId === run.turnId }),
  });
  return "done";
}

export const INTERRUPTED =
  "Interrupted: Plangate stopped (a crash or restart) while this call ran. It was not run again, and it may have partly taken effect: check its effect before you repeat it.";

const PLAN_ISSUED =
  "it was issued in plan mode (in the same step as exit_plan_mode, before the plan was approved), so it was judged as in plan mode. If it is part of the approved plan, issue it again now.";

/** A started call that a crash cut short is reported, never run again (the model decides what to do). */
export async function reportInterrupted(run: Run, call: ToolCallRef): Promise<CallOutcome> {
  return finish(run, call, { ok: false, error: INTERRUPTED }, true);
}

/**
 * The held patterns this call's answers released: those of an ask marked held that was answered "once". Only one of
 * the patterns' owners (or an owner overriding, with a reason, audited) may give that answer: the one gate's answer
 * check (reply-permission), the only way a request becomes "once". Anyone else's answer released nothing.
 */
function releasedBy(requests: readonly PermissionRequestView[]): string[] {
  return requests.flatMap((r) =>
    r.status === "once" && Array.isArray(r.metadata.heldFor)
      ? (r.metadata.heldFor as HeldRule[]).map((h) => h.pattern)
      : [],
  );
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
  const moved = workspaceProblem(run.session.workspace, getEnv().workspaceRoots);
  if (moved) return finish(run, call, { ok: false, error: moved });
  const ctx: ToolContext = { ...run.ctx, callId: call.callId };
  let asks: PermissionAsk[];
  try {
    asks = await def.asks(parsed.data, ctx);
  } catch (error) {
    return finish(run, call, { ok: false, error: error instanceof Error ? error.message : String(error) });
  }
  // A write under a held path is its reviewers' to answer: marked here for the gate, the card and the reply.
  const held = run.held ?? [];
  if (held.length > 0) asks = asks.map((a) => markHeld(a, held));
  if (isDoomLoop(run.previous, call))
    asks = [
      ...asks,
      {
        permission: "doom_loop",
        patterns: [call.tool],
        always: [call.tool],
        readOnly: true,
        metadata: { input: call.input },
      },
    ];

  const requests = run.askedCalls.has(call.callId)
    ? await listRequests(run.db, { sessionId: run.session.id, toolCallId: call.callId })
    : [];
  const rejected = requests.find((r) => r.status === "reject");
  if (rejected)
    return finish(run, call, {
      ok: false,
      error: `The user rejected this ${rejected.permission} call${rejected.message ? `: ${rejected.message}` : "."}`,
    });
  if (requests.some((r) => r.status === "pending")) return "suspended";
  const allowedOnce = new Set(requests.flatMap((r) => r.patterns.map((p) => onceKey(r.permission, p))));

  const judge = (grants: Ruleset) =>
    judgeCall({
      asks,
      agentRules: run.session.rules,
      narrowing: run.session.narrowing,
      grantRules: grants,
      mode: run.mode,
      gates: run.gates,
      allowedOnce,
      ancestors: run.ancestors,
    });
  // Grants can only turn an ask into an allow, so they are read only when something would ask.
  let judgement = judge(grantRuleset([]));
  if (judgement.kind === "ask") judgement = judge(await grantRules(run.db, run.session.id, run.session.workspace));
  if (judgement.kind === "deny")
    return finish(run, call, {
      ok: false,
      error: `Permission denied: ${run.issuedInPlan ? PLAN_ISSUED : judgement.reason}`,
    });
  if (judgement.kind === "ask") {
    const planned = planRequests(run.session.id, call.callId, call.tool, judgement.asks);
    await appendEvents(run.db, run.session.id, planned.events, {
      also: planned.write,
      guard: (s) => s.openTurnId === run.turnId,
    });
    return "suspended";
  }
  // The start is logged in its turn: an abort that already ended the turn refuses it (StaleAppend), so the call
  // either never starts, or starts and its result or interruption is logged. The two are serialised by the log.
  const started = def.rerun === undefined;
  if (started)
    await appendEvents(run.db, run.session.id, [{ type: "tool.started", payload: { callId: call.callId } }], {
      guard: (s) => s.openTurnId === run.turnId,
    });
  try {
    const approval = { asWritten: judgement.asWritten, released: releasedBy(requests) };
    const out = await def.execute(parsed.data, { ...ctx, approval });
    return finish(run, call, { ok: true, output: out.output, metadata: out.metadata }, started);
  } catch (error) {
    if (error instanceof ToolSuspended) return "suspended";
    if (error instanceof ToolError) return finish(run, call, { ok: false, error: error.message }, started);
    if (ctx.signal.aborted)
      return started ? finish(run, call, { ok: false, error: "Aborted while it ran." }, true) : "suspended";
    return finish(
      run,
      call,
      { ok: false, error: `The tool failed: ${error instanceof Error ? error.message : String(error)}` },
      started,
    );
  }
}
