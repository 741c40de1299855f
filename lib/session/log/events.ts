import { z } from "zod";
import { MODE_CHANGE_CAUSES, PERMISSION_MODES } from "../../permission/modes";
import { usageSchema } from "./usage";

export const permissionModeSchema = z.enum(PERMISSION_MODES);
export type Mode = z.infer<typeof permissionModeSchema>;

export const SESSION_STATUSES = ["idle", "running", "awaiting_review", "awaiting_permission", "interrupted"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const modeCauseSchema = z.enum(MODE_CHANGE_CAUSES);

const id = z.string().min(1);

/** What an imported file said of a signed act: set by the import only (lib/session/log/imported-claims.ts). */
const fromFile = { imported: z.literal(true).optional(), claimedBy: z.string().optional() };

export { usageSchema, type Usage } from "./usage";

// Every state change of a session is one of these; the payload schemas guard what gets appended.
export const eventSchemas = {
  "session.created": z.object({
    title: z.string(),
    workspace: z.string(),
    agent: z.string(),
    model: z.string(),
    mode: permissionModeSchema,
    prePlanMode: permissionModeSchema.nullable().optional(),
    planSlug: z.string().nullable().optional(),
    parentId: z.string().nullable().optional(),
    /** The steps of a scripted model (tests and outside clients only). */
    script: z.array(z.unknown()).optional(),
    /** For a subagent: the parent's tool call that started it. */
    parentCallId: z.string().optional(),
    /** For an outside agent's session (Claude Code, OpenCode): that agent's own session id. */
    externalId: z.string().optional(),
  }),
  "message.user": z.object({
    text: z.string(),
    source: z.enum(["user", "command", "queued", "system", "team"]).optional(),
  }),
  // mode = the permission mode this model request described (so a later user switch can be announced once).
  // partial: the text streamed before the request was stopped (an abort); the step took no tool calls.
  // basis: the last seq the request was built from; a user message logged after it was not in the request, so
  // the conversation places it after this step's results (absent in older logs: they keep their order).
  "message.assistant": z.object({
    text: z.string(),
    step: z.number().int().optional(),
    model: z.string().optional(),
    mode: permissionModeSchema.optional(),
    usage: usageSchema.optional(),
    partial: z.boolean().optional(),
    basis: z.number().int().min(0).optional(),
  }),
  // A model request failed in a way worth another try (rate limit, overload, a cut connection): the next
  // attempt starts at retryAt. Nothing of the failed attempt was logged.
  "model.retrying": z.object({
    turnId: id,
    attempt: z.number().int().min(2),
    of: z.number().int().min(2),
    retryAt: z.string(),
    reason: z.string(),
  }),
  "tool.called": z.object({ callId: id, tool: z.string(), input: z.unknown() }),
  // Logged just before a call with effects runs: a call started but never finished was cut by a crash or an
  // abort, and is reported as interrupted instead of being run a second time.
  "tool.started": z.object({ callId: id }),
  "tool.result": z.object({
    callId: id,
    tool: z.string(),
    ok: z.boolean(),
    output: z.unknown().optional(),
    error: z.string().optional(),
    metadata: z.unknown().optional(),
  }),
  // A call whose result waits on something outside the turn (a child session); the turn resumes when it ends.
  "tool.waiting": z.object({ callId: id, on: z.string() }),
  "todo.updated": z.object({
    todos: z.array(
      z.object({ content: z.string(), status: z.enum(["pending", "in_progress", "completed", "cancelled"]) }),
    ),
  }),
  "mode.changed": z.object({
    from: permissionModeSchema,
    to: permissionModeSchema,
    prePlanMode: permissionModeSchema.nullable(),
    cause: modeCauseSchema,
  }),
  // A user's choice made while a turn is open; applied at the next step boundary. null clears it.
  "mode.queued": z.object({ target: permissionModeSchema.nullable(), cause: modeCauseSchema }),
  "turn.started": z.object({ turnId: id, resumed: z.boolean().optional() }),
  // usage: the turn's tokens, summed over its model requests. error: the turn can be retried from the page.
  "turn.ended": z.object({
    turnId: id,
    reason: z.enum(["done", "aborted", "error", "max_steps", "max_tokens", "abandoned"]),
    usage: usageSchema.optional(),
  }),
  "turn.interrupted": z.object({ turnId: id }),
  "review.asked": z.object({
    reviewId: id,
    kind: z.string(),
    toolCallId: z.string().optional(),
    planVersion: z.number().int().optional(),
  }),
  // by: who decided, in words ("Ada", "Ada via token tok_…", "operator"), for the timeline and exports.
  // imported (issue 41): the event came in an imported file, which is no signature: its `by` is kept only as
  // claimedBy, the file's word, and every reader shows it as that ("imported: the file says …").
  // held (issue 27): patterns of the review policy's rules whose reviewers did not approve this version; the
  // work after the approval asks a person before it changes a file under them.
  "review.answered": z.object({
    reviewId: id,
    decision: z.string(),
    feedback: z.string().optional(),
    by: z.string().optional(),
    ...fromFile,
    held: z.array(z.string().max(300)).max(500).optional(),
    // heldFor (issue 41): whom each held pattern belongs to (emails): only one of them answers an ask under it.
    heldFor: z
      .array(z.object({ pattern: z.string().max(300), reviewers: z.array(z.string().max(320)).max(200) }))
      .max(500)
      .optional(),
  }),
  // Issue 27: an approval that left the review's policy unmet (the review stays pending); summary: what it still needs.
  // Issue 42: what the approval carried (stored with it: comments, replies, resolutions) and the reviewer's note.
  "review.approved": z.object({
    reviewId: id,
    by: z.string().optional(),
    summary: z.string(),
    review: z
      .object({
        comments: z.number().int().min(0),
        replies: z.number().int().min(0),
        resolved: z.number().int().min(0),
      })
      .optional(),
    note: z.string().max(20_000).optional(),
    ...fromFile,
  }),
  // purpose "verify": the person is asked before the workspace's verify command runs; it holds up no turn.
  "permission.asked": z.object({
    requestId: id,
    tool: z.string(),
    permission: z.string(),
    patterns: z.array(z.string()),
    callId: z.string().optional(),
    purpose: z.enum(["tool", "verify"]).optional(),
  }),
  "permission.replied": z.object({
    requestId: id,
    reply: z.enum(["once", "always", "reject"]),
    message: z.string().optional(),
    by: z.string().optional(),
    ...fromFile,
  }),
  "command.run": z.object({ name: z.string(), args: z.string(), outcome: z.string().optional() }),
  // The session's plan file was assigned (on first entering plan mode, or by a fork).
  "plan.created": z.object({ planId: id, slug: z.string(), path: z.string() }),
  "session.forked": z.object({ fromSessionId: id, atSeq: z.number().int() }),
  compaction: z.object({ summary: z.string(), fromSeq: z.number().int(), toSeq: z.number().int() }),
  notice: z.object({ level: z.enum(["info", "warning"]), text: z.string(), imported: fromFile.imported }),
  // The work was checked against an approved plan (the report is the Verification row).
  "verification.completed": z.object({
    verificationId: id,
    planVersion: z.number().int(),
    // unverified: nothing failed, but a changed item was not checked (no verify command ran, no model quoted it).
    status: z.enum(["pass", "fail", "unverified"]),
    method: z.enum(["deterministic", "model"]),
    summary: z.string(),
  }),
  // The session became a team's lead, or was started as one of its teammates.
  "team.joined": z.object({
    teamId: id,
    role: z.enum(["lead", "teammate"]),
    name: z.string(),
    leadSessionId: id,
    requirePlanApproval: z.boolean().optional(),
  }),
} as const;

export type EventType = keyof typeof eventSchemas;
export const EVENT_TYPES = Object.keys(eventSchemas) as EventType[];

export type EventPayload<T extends EventType> = z.infer<(typeof eventSchemas)[T]>;

/** An event before it has a place in the log. */
export type NewEvent = { [T in EventType]: { type: T; payload: EventPayload<T> } }[EventType];

/** An event as stored: seq is gap-free per session, starting at 1. */
export type SessionEvent = NewEvent & { seq: number; at: string };

export function parseNewEvent(input: { type: string; payload: unknown }): NewEvent {
  if (!(input.type in eventSchemas)) throw new Error(`Unknown event type: ${input.type}`);
  const type = input.type as EventType;
  const payload = eventSchemas[type].parse(input.payload);
  return { type, payload } as NewEvent;
}
