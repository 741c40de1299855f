import crypto from "node:crypto";

/** Coding agents whose plans Plangate reviews without running them (their own CLI runs the turn). */
export const EXTERNAL_AGENTS = [
  "claude-code",
  "opencode",
  "gemini",
  "codex",
  "pi",
  "droid",
  "copilot",
  "qwen",
  "kilo",
  "cline",
  "amp",
  "mcp",
] as const;
export type ExternalAgent = (typeof EXTERNAL_AGENTS)[number];

/** The model of a session whose turns an outside agent runs: Plangate's driver never calls a model for it. */
export const EXTERNAL_MODEL = "external";

export function isExternalModel(model: string): boolean {
  return model === EXTERNAL_MODEL;
}

/**
 * The Plangate session of an outside agent's session in one workspace: derived, so a hook that runs again (or
 * on another instance) finds the same session without a lookup table, and a session id reused in another
 * workspace is another session.
 */
export function externalSessionId(
  agent: ExternalAgent,
  externalId: string,
  workspace: string,
  machine?: string,
): string {
  // The same folder on two machines is two sessions (a folder named without a machine keeps its old id).
  const where = machine ? `${workspace}\0${machine}` : workspace;
  const digest = crypto.createHash("sha256").update(`${agent}\0${externalId}\0${where}`).digest("hex").slice(0, 26);
  return `ses_x${digest}`;
}
