import path from "node:path";
import type { Db } from "../db/client";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { isModeAllowed, type PermissionMode } from "../permission";
import { createSession } from "../session/create-session";
import { getSession } from "../session/get-session";
import { ensureSampleWorkspace } from "../workspace/ensure-sample-workspace";
import { readGates } from "../session/mode-gates";
import { checkSessionInput } from "./check-session-input";
import { appendEvents } from "../session/append-events";
import { planFileEvents, preparePlanFolder, writePlanRows } from "../plan/ensure-plan";
import type { Starter } from "../auth/rules/rights";
import { loadWorkspaceConfig } from "../workspace/workspace-config";

/** A config that cannot be used (unreadable, refused, invalid) is said in the session, not only on the workspace page. */
async function noteRefusedConfig(db: Db, sessionId: string, workspace: string): Promise<void> {
  const error = loadWorkspaceConfig(workspace).error;
  if (error === undefined) return;
  const text = `${error}. Nothing of it applies (neither its deny and ask rules nor anything else) until it is fixed.`;
  await appendEvents(db, sessionId, [{ type: "notice", payload: { level: "warning", text } }]);
}

export type StartSessionInput = {
  title?: string;
  workspace?: string;
  agent: string;
  mode: PermissionMode;
  model?: string;
  script?: unknown[];
  /** Who starts it, from the identified actor. */
  starter?: Starter;
};

/** POST /api/sessions: validates workspace, model, mode and script, then creates the session. */
export async function startSession(
  db: Db,
  input: StartSessionInput,
  /** The caller's check of the resolved workspace (whether this person may start sessions there); throws to refuse. */
  mayStartIn: (workspace: string) => void = () => undefined,
) {
  const env = getEnv();
  const gates = await readGates(db);
  if (!isModeAllowed(input.mode, gates))
    throw new AppError("mode_not_allowed", `mode: ${input.mode} is not allowed on this server right now`);
  const defaultRoot = env.workspaceRoots[0];
  const requested = input.workspace ?? (defaultRoot ? ensureSampleWorkspace(defaultRoot) : "");
  const { workspace, model, script } = await checkSessionInput(db, env, {
    workspace: requested,
    agent: input.agent,
    model: input.model ?? env.PLANGATE_MODEL,
    script: input.script,
  });
  mayStartIn(workspace);
  const { id } = await createSession(db, {
    title: input.title ?? `Session in ${path.basename(workspace)}`,
    workspace,
    agent: input.agent,
    model,
    mode: input.mode,
    script,
    ...(input.starter ? { starter: input.starter } : {}),
  });
  await noteRefusedConfig(db, id, workspace);
  if (input.mode === "plan") {
    // Created in plan mode: the plan file is assigned now (its slug has no prompt words yet).
    const { state } = await appendEvents(db, id, (s) => planFileEvents(s, id), {
      also: (run, result) => writePlanRows(run, id, result.events),
    });
    preparePlanFolder(state);
  }
  return getSession(db, id);
}
