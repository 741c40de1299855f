import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { permissionConfigSchema } from "../permission";
import { WEBHOOK_EVENTS } from "../webhooks/event-names";

export const CONFIG_PATH = ".plangate/config.json";

const agentSchema = z.object({
  description: z.string().max(500).optional(),
  permission: permissionConfigSchema,
  readOnly: z.boolean().optional(),
  mode: z.enum(["primary", "subagent"]).optional(),
});

export const workspaceConfigSchema = z
  .object({
    /** Rules merged last into every agent, so they override the native ones. */
    permission: permissionConfigSchema.optional(),
    agents: z.record(z.string().regex(/^[a-z][a-z0-9_-]{0,40}$/), agentSchema).optional(),
    plansDirectory: z.string().min(1).max(1000).optional(),
    // Extra host folders shown read-only to commands; home folders and Plangate's own data are never shown.
    sandbox: z.object({ read: z.array(z.string().min(1).max(1000)).max(50).optional() }).strict().optional(),
    verify: z.object({ command: z.string().min(1).max(2000), timeoutMs: z.number().int().min(1000).max(1_800_000).optional() }).optional(),
    // URLs called on plan events. Untrusted like the rest of the file: only hosts in PLANGATE_WEBHOOK_HOSTS are called.
    webhooks: z
      .array(z.object({ url: z.string().min(1).max(2000), events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).optional() }).strict())
      .max(20)
      .optional(),
  })
  .strict();

export type WorkspaceConfig = z.infer<typeof workspaceConfigSchema> & { error?: string };

const cache = new Map<string, { mtimeMs: number; config: WorkspaceConfig }>();
// One shared value for "no config file", so callers can cache by identity.
const NONE: WorkspaceConfig = Object.freeze({});

/** `<workspace>/.plangate/config.json`, validated; a broken file is reported, never half-applied. */
export function loadWorkspaceConfig(workspace: string): WorkspaceConfig {
  const file = path.join(workspace, CONFIG_PATH);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return NONE;
  }
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === stat.mtimeMs) return hit.config;
  let config: WorkspaceConfig;
  try {
    const parsed = workspaceConfigSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
    config = parsed.success ? parsed.data : { error: `${CONFIG_PATH}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}` };
  } catch (error) {
    config = { error: `${CONFIG_PATH}: ${error instanceof Error ? error.message : String(error)}` };
  }
  cache.set(file, { mtimeMs: stat.mtimeMs, config });
  return config;
}
