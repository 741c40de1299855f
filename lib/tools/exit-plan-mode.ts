import { z } from "zod";
import { findPlanByFile } from "../db/plans/plans";
import { findReviewOfCall } from "../db/plans/reviews";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import { PlanFileError, readPlanFile, writePlanFile } from "../plan/plan-file";
import { planProblem } from "../plan/plan-markdown";
import { ToolError, ToolSuspended, type ToolDef } from "./types";
import { insertMail } from "../team/mailbox";
import {
  insertPlanSubmission,
  LEAD_REVIEW_INTENT,
  PLAN_REVIEW_INTENT,
  PlanVersionTaken,
} from "../plan/submit-plan-version";
import { leadModelMayAnswer, wakeSession } from "../team/wake-session";

const input = z.object({ plan: z.string().max(200_000).optional() }).strict();

export const exitPlanModeTool: ToolDef<z.infer<typeof input>> = {
  name: "exit_plan_mode",
  description:
    "Present your plan for approval and leave plan mode if the user approves. Reads your plan file (pass `plan` to write it first). Only works in plan mode.",
  permission: "plan_exit",
  rerun: "resume",
  inputSchema: input,
  // Always offered and never asked about: it changes nothing but the plan file; the user's decision is the gate.
  async asks() {
    return [];
  },
  async execute(args, ctx) {
    const rt = ctx.runtime;
    if (!rt) throw new ToolError("exit_plan_mode needs a session");
    if (rt.isSubagent)
      throw new ToolError(
        "You are a subagent: you cannot open a plan review. Put your plan and any decision you need in your final result instead.",
      );
    if (await findReviewOfCall(rt.db, ctx.sessionId, ctx.callId)) throw new ToolSuspended();
    if (ctx.mode !== "plan") throw new ToolError("exit_plan_mode only works in plan mode; you are not in plan mode.");
    const file = ctx.planFile;
    if (!file) throw new ToolError("This session has no plan file yet.");
    // Checked again now, without following links: one planted since the file was assigned must not lead the
    // write out, nor show another file's contents as the plan.
    let markdown: string | null;
    try {
      if (args.plan !== undefined) writePlanFile(ctx.workspace, file, args.plan);
      markdown = readPlanFile(ctx.workspace, file);
    } catch (error) {
      if (error instanceof PlanFileError) throw new ToolError(`${error.message} The plan was not submitted.`);
      throw error;
    }
    if (markdown === null)
      throw new ToolError(`The plan file ${file} does not exist: write your plan there (or pass it as \`plan\`).`);
    const problem = planProblem(markdown);
    if (problem) throw new ToolError(problem);

    const team = rt.team ?? null;
    const toLead = team?.role === "teammate" && team.requirePlanApproval;
    const reviewId = newId("rev");
    const plan = await findPlanByFile(rt.db, ctx.sessionId, file);
    if (!plan) throw new ToolError("This session has no plan record.");
    const planId = plan.id;
    const version = plan.currentVersion + 1;
    await appendEvents(
      rt.db,
      ctx.sessionId,
      [
        {
          type: "review.asked",
          payload: { reviewId, kind: "plan-review", toolCallId: ctx.callId, planVersion: version },
        },
        ...(toLead
          ? [
              {
                type: "notice" as const,
                payload: {
                  level: "info" as const,
                  text: `Plan version ${version} submitted to the team lead for approval (request ${reviewId}); waiting for the answer.`,
                },
              },
            ]
          : []),
      ],
      {
        also: async (tx) => {
          try {
            await insertPlanSubmission(tx, {
              sessionId: ctx.sessionId,
              planId,
              version,
              markdown,
              file,
              reviewId,
              callId: ctx.callId,
              intent: toLead ? LEAD_REVIEW_INTENT : PLAN_REVIEW_INTENT,
            });
          } catch (error) {
            throw error instanceof PlanVersionTaken ? new ToolError(error.message) : error;
          }
          // A teammate that needs approval asks its lead, in the same transaction as the review it waits on.
          if (toLead && team) {
            await insertMail(tx, {
              teamId: team.id,
              from: ctx.sessionId,
              to: team.leadSessionId,
              type: "plan_approval_request",
              requestId: reviewId,
              payload: { from: team.name, requestId: reviewId, planFilePath: file, planContent: markdown, version },
            });
          }
        },
      },
    );
    // The lead's model gets a turn to answer only when it could: not in plan mode (it may not approve changes
    // from there, and would only plan about the mail), and not in a team that requires a person.
    if (toLead && (await leadModelMayAnswer(rt.db, team.id, team.leadSessionId)))
      await wakeSession(rt.db, team.leadSessionId, rt.drive);
    throw new ToolSuspended();
  },
};
