import { z } from "zod";
import { findPlanByFile } from "../db/plans/plans";
import { findReviewOfCall } from "../db/plans/reviews";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import { PlanFileError, readPlanFile, writePlanFile } from "../plan/plan-file";
import { planProblem } from "../plan/plan-markdown";
import { ToolError, ToolSuspended, type ToolDef } from "./types";
import { leadTeamOf, PlanVersionTaken, submissionEvents, submitPlan } from "../review/submit-plan";
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

    const plan = await findPlanByFile(rt.db, ctx.sessionId, file);
    if (!plan) throw new ToolError("This session has no plan record.");
    const submission = {
      sessionId: ctx.sessionId,
      planId: plan.id,
      version: plan.currentVersion + 1,
      markdown,
      file,
      reviewId: newId("rev"),
      callId: ctx.callId,
      team: rt.team ?? null,
    };
    await appendEvents(rt.db, ctx.sessionId, submissionEvents(submission, "ours"), {
      also: async (tx) => {
        try {
          await submitPlan(tx, submission);
        } catch (error) {
          throw error instanceof PlanVersionTaken ? new ToolError(error.message) : error;
        }
      },
    });
    const lead = leadTeamOf(submission.team);
    // The lead's model gets a turn to answer only when it could: not in plan mode (it may not approve changes
    // from there, and would only plan about the mail), and not in a team that requires a person.
    if (lead && (await leadModelMayAnswer(rt.db, lead.id, lead.leadSessionId)))
      await wakeSession(rt.db, lead.leadSessionId, rt.drive);
    throw new ToolSuspended();
  },
};
