import path from "node:path";
import type { Db } from "../db/client";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { isModeAllowed, type PermissionMode } from "../permission";
import { createSession } from "../session/create-session";
import { getSession } from "../session/get-session";
import { checkWorkspace } from "../workspace/check-workspace";
import { ensureSampleWorkspace } from "../workspace/ensure-sample-workspace";
import { readGates } from "./mode-gates";
import { agentDef } from "./session-context";
import { appendEvents } from "../session/append-events";
import { planFileEvents, preparePlanFolder, writePlanRows } from "../plan/ensure-plan";
import { modelConfigError } from "./models/resolve-model";
import { scriptSchema } from "./models/scripted-model";

export type StartSessionInput = {
  title?: string;
  workspace?: string;
  agent: string;
  mode: PermissionMode;
  model?: string;
  script?: unknown[];
};

/** POST /api/sessions: validates workspace, model, mode and script, then creates the session. */
export async function startSession(db: Db, input: StartSessionInput) {
  const env = getEnv();
  const model = input.model ?? env.PLANGATE_MODEL;
  if (model === "scripted" && !env.PLANGATE_ALLOW_SCRIPTED) throw new AppError("bad_request", "model: the scripted model is only accepted when PLANGATE_ALLOW_SCRIPTED=1");
  const modelError = modelConfigError(model, env);
  if (modelError) throw new AppError("bad_request", `model: ${modelError}`);
  let script: unknown[] | undefined;
  if (input.script !== undefined) {
    if (model !== "scripted") throw new AppError("bad_request", "script: only the scripted model takes a script");
    const parsed = scriptSchema.safeParse(input.script);
    if (!parsed.success) throw new AppError("bad_request", `script: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    script = parsed.data;
  }
  const gates = await readGates(db);
  if (!isModeAllowed(input.mode, gates)) throw new AppError("mode_not_allowed", `mode: ${input.mode} is not allowed on this server right now`);
  const defaultRoot = env.workspaceRoots[0];
  const requested = input.workspace ?? (defaultRoot ? ensureSampleWorkspace(defaultRoot) : "");
  const workspace = checkWorkspace(requested, env.workspaceRoots);
  agentDef(input.agent, workspace);
  const { id } = await createSession(db, {
    title: input.title ?? `Session in ${path.basename(workspace)}`,
    workspace,
    agent: input.agent,
    model,
    mode: input.mode,
    script,
  });
  if (input.mode === "plan") {
    // Created in plan mode: the plan file is assigned now (its slug has no prompt words yet).
    const { state } = await appendEvents(db, id, (s) => planFileEvents(s, id), { also: (run, result) => writePlanRows(run, id, result.events) });
    preparePlanFolder(state);
  }
  return getSession(db, id);
}
