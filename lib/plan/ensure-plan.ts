import type { Executor } from "../db/client";
import { insertPlan } from "../db/plans/plans";
import { newId } from "../id";
import type { NewEvent } from "../session/log/events";
import type { SessionState } from "../session/log/fold";
import { loadWorkspaceConfig } from "../workspace/workspace-config";
import { PlanFileError, preparePlanDir } from "./plan-file";
import { planFilePath, planSlug, resolvePlansDir } from "./plan-paths";

/** Where this session's plans go, and the warning to log when the configured folder had to be refused. */
export function plansDirFor(workspace: string): {
  relative: string;
  absolute: string;
  warning?: string;
  unusable?: string;
} {
  return resolvePlansDir(workspace, loadWorkspaceConfig(workspace).plansDirectory);
}

/**
 * Events that give a session its plan file the first time it enters plan mode (re-entering keeps the same file).
 * A subagent's file carries "-agent-<id>" so it never overwrites its parent's.
 */
export function planFileEvents(state: SessionState, sessionId: string, prompt?: string): NewEvent[] {
  if (state.planPath) return [];
  const dir = plansDirFor(state.workspace);
  if (dir.unusable) return [{ type: "notice", payload: { level: "warning", text: dir.unusable } }];
  const slug = planSlug(state.firstPrompt ?? prompt ?? null);
  const file = planFilePath(dir.absolute, slug, state.parentId ? sessionId : undefined);
  const events: NewEvent[] = [{ type: "plan.created", payload: { planId: newId("pln"), slug, path: file } }];
  if (dir.warning) events.unshift({ type: "notice", payload: { level: "warning", text: dir.warning } });
  return events;
}

/** Writes the Plan rows for plan.created events of an append (inside its transaction). */
export async function writePlanRows(run: Executor, sessionId: string, events: NewEvent[]): Promise<void> {
  for (const e of events) {
    if (e.type !== "plan.created") continue;
    const { planId: id, slug, path: filePath } = e.payload;
    await insertPlan(run, { id, sessionId, slug, filePath, at: new Date() });
  }
}

/** After the commit: make sure the plans folder exists so the agent can write its plan (never through a link). */
export function preparePlanFolder(state: SessionState): void {
  if (!state.planPath) return;
  try {
    preparePlanDir(state.workspace, state.planPath);
  } catch (error) {
    if (!(error instanceof PlanFileError)) throw error;
  }
}
