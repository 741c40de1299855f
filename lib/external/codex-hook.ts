import { z } from "zod";

/**
 * Codex CLI 0.171's hooks, as far as Plangate answers them (measured with the real CLI through `codex app-server`:
 * README, "On the desk"). Codex has no plan-exit tool: a plan is a `<proposed_plan>` block, in plan mode a `Plan`
 * item of the turn. Its Stop hook accepts with `{}` (the turn ends: nothing reaches the model), sends the turn on
 * with `{"decision":"block","reason"}` (the reason is the model's next message), or stops it with `continue: false`.
 * A Stop hook that fails or times out ends the turn as if accepted, so every answer here is an explicit one.
 */
const common = {
  session_id: z.string().min(1),
  turn_id: z.string().min(1),
  transcript_path: z.string().nullish(),
  cwd: z.string().min(1),
};
export const codexStopInput = z.object({
  ...common,
  hook_event_name: z.literal("Stop"),
  stop_hook_active: z.boolean().optional(),
  last_assistant_message: z.string().nullish(),
});
export const codexPermissionInput = z.object({
  ...common,
  hook_event_name: z.literal("PermissionRequest"),
  tool_name: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
});
export const codexHookInput = z.discriminatedUnion("hook_event_name", [codexStopInput, codexPermissionInput]);
export type CodexStopInput = z.infer<typeof codexStopInput>;

export const codexGoOn = (note?: string): object => (note ? { systemMessage: note } : {});
export const codexBlock = (reason: string): object => ({ decision: "block", reason });
export const codexStop = (reason: string): object => ({ continue: false, stopReason: reason });
export const codexPermission = (behavior: "allow" | "deny", message?: string): object => ({
  hookSpecificOutput: {
    hookEventName: "PermissionRequest",
    decision: message ? { behavior, message } : { behavior },
  },
});

/**
 * The last `<proposed_plan>` block of a message (its tags alone on their lines), or null. A block the message ends
 * inside counts too: Codex closes it at the end of the message.
 */
export function proposedPlan(text: string): string | null {
  const lines = text.split("\n");
  let plan: string | null = null;
  let open: string[] | null = null;
  for (const line of lines) {
    const t = line.trim();
    if (open === null && t === "<proposed_plan>") open = [];
    else if (open !== null && t === "</proposed_plan>") {
      plan = open.join("\n");
      open = null;
    } else if (open !== null) open.push(line);
  }
  if (open !== null) plan = open.join("\n");
  const trimmed = plan?.trim();
  return trimmed ? `${trimmed}\n` : null;
}

type Line = {
  type?: string;
  payload?: {
    type?: string;
    turn_id?: string;
    item?: { type?: string; text?: string };
    role?: string;
    content?: { type?: string; text?: string }[];
    internal_chat_message_metadata_passthrough?: { turn_id?: string };
  };
};

/**
 * Pure: the plan this turn proposed last, from Codex's rollout transcript (JSON lines): the turn's last `Plan`
 * item (plan mode), else the last `<proposed_plan>` block of the turn's assistant messages; null when the turn
 * proposed none since a Stop hook last sent it back (its feedback is a `<hook_prompt>` user message: a plan
 * before it was already reviewed). Lines of other turns never count.
 */
export function planOfTurn(transcript: string, turnId: string): string | null {
  let fromItem: string | null = null;
  let fromMessage: string | null = null;
  for (const raw of transcript.split("\n")) {
    if (!raw.trim()) continue;
    let line: Line;
    try {
      line = JSON.parse(raw) as Line;
    } catch {
      continue; // a line being written
    }
    const p = line.payload;
    if (line.type === "response_item" && p?.type === "message" && p.role === "user") {
      const text = (p.content ?? []).map((c) => c.text ?? "").join("");
      if (text.includes("<hook_prompt")) {
        fromItem = null;
        fromMessage = null;
      }
    }
    if (line.type === "event_msg" && p?.type === "item_completed" && p.turn_id === turnId && p.item?.type === "Plan") {
      const text = p.item.text?.trim();
      if (text) fromItem = `${text}\n`;
    }
    if (
      line.type === "response_item" &&
      p?.type === "message" &&
      p.role === "assistant" &&
      p.internal_chat_message_metadata_passthrough?.turn_id === turnId
    ) {
      const text = (p.content ?? []).map((c) => c.text ?? "").join("");
      fromMessage = proposedPlan(text) ?? fromMessage;
    }
  }
  return fromItem ?? fromMessage;
}
