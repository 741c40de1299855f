import { z } from "zod";
import { AppError } from "../errors";
import { answerPlanRequest } from "../review/answer-mailbox";
import { listMail } from "../team/mailbox";
import { findMember, sendMail } from "../team/send-mail";
import { ToolError, type ToolDef } from "./types";

const input = z.discriminatedUnion("type", [
  z
    .object({ type: z.literal("message"), to: z.string().min(1).max(100), text: z.string().min(1).max(20_000) })
    .strict(),
  z
    .object({
      type: z.literal("plan_approval_response"),
      to: z.string().min(1).max(100),
      /** Omitted: the teammate's current pending request. */
      requestId: z.string().min(1).max(100).optional(),
      approve: z.boolean(),
      feedback: z.string().max(20_000).optional(),
    })
    .strict(),
]);
type Input = z.infer<typeof input>;

export const sendMessageTool: ToolDef<Input> = {
  name: "send_message",
  description:
    'Team members only: message a teammate or the lead ("lead"), delivered at its next step. A lead answers a teammate\'s plan_approval_request with type "plan_approval_response" (approve, feedback).',
  permission: "send_message",
  inputSchema: input,
  async asks(args) {
    return [{ permission: "send_message", patterns: [args.to], always: ["*"], readOnly: true }];
  },
  async execute(args, ctx) {
    const rt = ctx.runtime;
    const team = rt?.team;
    if (!rt || !team) throw new ToolError("send_message works only in a team session.");
    try {
      const to = await findMember(rt.db, team.id, args.to);
      if (args.type === "message") {
        await sendMail(
          rt.db,
          { teamId: team.id, from: ctx.sessionId, to, type: "message", payload: { text: args.text } },
          rt.drive,
        );
        return { output: `Message sent to ${args.to}.` };
      }
      const requests = await listMail(rt.db, {
        teamId: team.id,
        type: "plan_approval_request",
        ...(args.requestId ? { requestId: args.requestId } : {}),
      });
      const request = args.requestId
        ? requests[0]
        : requests.filter((r) => r.from === to && r.status !== "answered").at(-1);
      if (request && request.from !== to) throw new ToolError(`Request ${args.requestId} is not from ${args.to}.`);
      const answerer = { by: "lead-model" as const, mode: ctx.mode, readOnly: ctx.readOnly };
      await answerPlanRequest(rt.db, {
        teamId: team.id,
        responder: ctx.sessionId,
        request,
        answerer,
        drive: rt.drive,
        reply: { approve: args.approve, ...(args.feedback ? { feedback: args.feedback } : {}) },
      });
      return { output: `Plan of ${args.to} ${args.approve ? "approved" : "sent back with your feedback"}.` };
    } catch (error) {
      if (error instanceof AppError) throw new ToolError(`Refused: ${error.message}`);
      throw error;
    }
  },
};
