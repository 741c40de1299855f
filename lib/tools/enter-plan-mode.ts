import { z } from "zod";
import { readGates } from "../session/mode-gates";
import { appendEvents } from "../session/append-events";
import { transitionEvents } from "../plan/mode-choice";
import { planFileEvents, preparePlanFolder, writePlanRows } from "../plan/ensure-plan";
import { PlanFileError, readPlanFile } from "../plan/plan-file";
import { ToolError, type ToolDef } from "./types";

const input = z.object({}).strict();

export const enterPlanModeTool: ToolDef<z.infer<typeof input>> = {
  name: "enter_plan_mode",
  description:
    "Switch to plan mode before a change that needs understanding first: you may then read, search and ask, but change nothing except your plan file; finish with exit_plan_mode to ask the user to approve the plan.",
  permission: "plan_enter",
  rerun: "safe",
  inputSchema: input,
  async asks() {
    return [{ permission: "plan_enter", patterns: ["*"], always: ["*"], readOnly: true }];
  },
  async execute(_args, ctx) {
    const rt = ctx.runtime;
    if (!rt) throw new ToolError("enter_plan_mode needs a session");
    if (rt.isSubagent) throw new ToolError("A subagent cannot enter plan mode: it works inside its parent's turn.");
    const gates = await readGates(rt.db);
    const { state } = await appendEvents(
      rt.db,
      ctx.sessionId,
      (s) =>
        s.mode === "plan" ? [] : [...planFileEvents(s, ctx.sessionId), ...transitionEvents(s, "plan", gates, "tool")],
      { also: (run, result) => writePlanRows(run, ctx.sessionId, result.events) },
    );
    preparePlanFolder(state);
    const path = state.planPath ?? "(no plan file)";
    // The plan file is the workspace's: read as untrusted (no link, FIFO or device, at most 256 KiB), never raw.
    let existing = false;
    let unusable: string | null = null;
    try {
      existing = state.planPath !== null && (readPlanFile(state.workspace, state.planPath) ?? "").trim() !== "";
    } catch (error) {
      if (!(error instanceof PlanFileError)) throw error;
      unusable = error.message;
    }
    const lines = [
      "Plan mode is on. Explore with read, list, glob, grep and read-only shell commands; ask the user with question when a choice is theirs.",
      `Write your plan as markdown starting with a heading to ${path}: it is the only file you may change.`,
      "When the plan is complete, call exit_plan_mode to ask the user to approve it. Do not change anything else before that.",
    ];
    if (existing) lines.push(`That file already holds a plan from earlier in this session: refine it or replace it.`);
    if (unusable) lines.push(`${unusable}: write your plan afresh (writing the plan file replaces it).`);
    return { output: lines.join("\n"), metadata: { planFile: path } };
  },
};
