import type { SessionState } from "../session/log/fold";
import { PlanFileError, readPlanFile } from "./plan-file";

/**
 * What a summary must never lose: the plan. In plan mode, the plan file and its current text; after an
 * approval, the plan that was agreed. Re-injected after every compaction summary.
 */
export function planReference(state: SessionState): string | null {
  if (!state.planPath) return null;
  let text = "";
  try {
    text =
      readPlanFile(state.workspace, state.planPath)?.trim() ??
      "(the file is missing; it is restored from the latest plan version on resume)";
  } catch (error) {
    // A link, a FIFO or a huge file planted at the plan path: said, never read into the model's context.
    text = `(the file cannot be read: ${error instanceof PlanFileError ? error.message : "unreadable"})`;
  }
  if (state.mode === "plan")
    return `Plan mode is on. Your plan file is ${state.planPath}; it currently says:\n\n${text || "(empty)"}`;
  return text ? `The plan agreed in this session (${state.planPath}); keep following it:\n\n${text}` : null;
}
