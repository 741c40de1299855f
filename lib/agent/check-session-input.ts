import type { Db } from "../db/client";
import type { Env } from "../env";
import { AppError } from "../errors";
import { scriptSchema } from "../model/scripted-model";
import { modelConfigError } from "../model/resolve-model";
import { agentDef } from "./session-context";
import { checkWorkspace } from "../workspace/check-workspace";
import { workspaceConfigFor } from "../workspace/effective-config";

export type CheckedSessionInput = { workspace: string; agent: string; model: string; script: unknown[] | undefined };

/**
 * What a new session may be made of, whoever asks (the create form, an imported file): a workspace inside the
 * roots (realpath), an agent that exists there, a model this server is configured for (the scripted model only
 * with PLANGATE_ALLOW_SCRIPTED), and a script only for the scripted model.
 */
export async function checkSessionInput(
  db: Db,
  env: Env,
  input: { workspace: string; agent: string; model: string; script?: unknown[] },
): Promise<CheckedSessionInput> {
  if (input.model === "scripted" && !env.PLANGATE_ALLOW_SCRIPTED)
    throw new AppError("bad_request", "model: the scripted model is only accepted when PLANGATE_ALLOW_SCRIPTED=1");
  const modelError = modelConfigError(input.model, env);
  if (modelError) throw new AppError("bad_request", `model: ${modelError}`);
  let script: unknown[] | undefined;
  if (input.script !== undefined) {
    if (input.model !== "scripted") throw new AppError("bad_request", "script: only the scripted model takes a script");
    const parsed = scriptSchema.safeParse(input.script);
    if (!parsed.success)
      throw new AppError(
        "bad_request",
        `script: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      );
    script = parsed.data;
  }
  const workspace = checkWorkspace(input.workspace, env.workspaceRoots);
  // A custom agent exists once a person trusted the config that defines it.
  agentDef(input.agent, workspace, await workspaceConfigFor(db, workspace));
  return { workspace, agent: input.agent, model: input.model, script };
}
