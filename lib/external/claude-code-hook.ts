import { z } from "zod";

/** What Claude Code gives a PermissionRequest hook on stdin (2.1.x), as far as Plangate reads it. */
export const claudeHookInput = z.object({
  session_id: z.string().min(1),
  transcript_path: z.string().optional(),
  cwd: z.string().min(1),
  hook_event_name: z.literal("PermissionRequest"),
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
});
export type ClaudeHookInput = z.infer<typeof claudeHookInput>;

export type ReviewOutcome = { status: string; plan: string; mode: string; message: string | null };

// Claude Code's modes: Plangate's auto has no twin there, so an approval into auto accepts edits.
const CLAUDE_MODE: Record<string, "default" | "acceptEdits"> = {
  default: "default",
  acceptEdits: "acceptEdits",
  auto: "acceptEdits",
  bypassPermissions: "acceptEdits",
};

/**
 * Pure: the hook's answer to Claude Code for a decided review, or null to stay silent (the terminal answered,
 * or nothing was decided). An allow must carry updatedInput or Claude Code ignores it; the plan in it is the
 * one the person approved (edited or not), which the model then reads as the approved plan.
 */
export function hookDecision(input: ClaudeHookInput, outcome: ReviewOutcome): object | null {
  const wrap = (decision: object) => ({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } });
  if (outcome.status === "approved") {
    return wrap({
      behavior: "allow",
      updatedInput: { ...input.tool_input, plan: outcome.plan },
      updatedPermissions: [{ type: "setMode", mode: CLAUDE_MODE[outcome.mode] ?? "default", destination: "session" }],
    });
  }
  if (outcome.status === "rejected" || outcome.status === "abandoned") {
    return wrap({ behavior: "deny", message: outcome.message ?? "The plan was not approved: keep planning." });
  }
  return null;
}

type TranscriptEntry = { message?: { content?: unknown }; permissionDecision?: { source?: string } };
type Block = { type?: string; id?: string; name?: string; tool_use_id?: string; is_error?: boolean; content?: unknown };

/**
 * Pure: whether Claude Code's own dialog already answered the latest ExitPlanMode in a transcript (JSON lines):
 * "approved", "rejected", or null while it has not. A result the hook's own decision caused says so
 * (permissionDecision.source "hook") and is not the terminal's.
 */
export function terminalAnswer(transcript: string): "approved" | "rejected" | null {
  let callId: string | null = null;
  let answer: "approved" | "rejected" | null = null;
  for (const line of transcript.split("\n")) {
    if (!line.trim()) continue;
    let entry: TranscriptEntry;
    try {
      entry = JSON.parse(line) as TranscriptEntry;
    } catch {
      continue; // a line being written
    }
    const blocks = Array.isArray(entry.message?.content) ? (entry.message.content as Block[]) : [];
    for (const b of blocks) {
      if (b.type === "tool_use" && b.name === "ExitPlanMode" && b.id) {
        callId = b.id;
        answer = null;
      } else if (
        b.type === "tool_result" &&
        callId !== null &&
        b.tool_use_id === callId &&
        entry.permissionDecision?.source !== "hook"
      ) {
        answer = b.is_error ? "rejected" : "approved";
      }
    }
  }
  return answer;
}

export type AskReply = { status: string; message: string | null };

/**
 * Pure: the hook's answer to a tool's permission ask, or null to leave it to Claude Code's own dialog. An
 * allow carries the call's input unchanged (Claude Code ignores an allow without it).
 */
export function askDecision(input: ClaudeHookInput, reply: AskReply): object | null {
  const wrap = (decision: object) => ({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } });
  if (reply.status === "allow" || reply.status === "once" || reply.status === "always")
    return wrap({ behavior: "allow", updatedInput: input.tool_input });
  if (reply.status === "deny" || reply.status === "reject")
    return wrap({ behavior: "deny", message: reply.message ?? "A person refused this call in Plangate." });
  return null;
}
