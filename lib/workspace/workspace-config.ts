import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { permissionConfigSchema } from "../permission";
import { WEBHOOK_EVENTS } from "../webhooks/event-names";
import { parseUntrustedJson, readUntrustedFile } from "./read-untrusted-file";

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
    sandbox: z
      .object({ read: z.array(z.string().min(1).max(1000)).max(50).optional() })
      .strict()
      .optional(),
    verify: z
      .object({ command: z.string().min(1).max(2000), timeoutMs: z.number().int().min(1000).max(1_800_000).optional() })
      .optional(),
    // URLs called on plan events. Untrusted like the rest of the file: only hosts in PLANGATE_WEBHOOK_HOSTS are called.
    webhooks: z
      .array(
        z
          .object({ url: z.string().min(1).max(2000), events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).optional() })
          .strict(),
      )
      .max(20)
      .optional(),
  })
  .strict();

export type WorkspaceConfig = z.infer<typeof workspaceConfigSchema> & { error?: string };

/** The file as read: its validated content, and the sha-256 of its bytes (what a person trusts), null without a file. */
export type ConfigFile = { config: WorkspaceConfig; hash: string | null };

// Keyed by what any write changes: ctime cannot be set back by a program (mtime can, with touch -r), so a file
// rewritten to the same size within the same moment is still read again and its hash recomputed. With the device
// and inode, a hit is the very file read (safely) before, unchanged.
const stamp = (s: fs.Stats) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
const cache = new Map<string, { stamp: string; file: ConfigFile }>();
// One shared value for "no config file", so callers can cache by identity.
const NONE: WorkspaceConfig = Object.freeze({});
const NO_FILE: ConfigFile = Object.freeze({ config: NONE, hash: null });

function parseConfig(bytes: Buffer): WorkspaceConfig {
  const json = parseUntrustedJson(bytes.toString("utf8"), CONFIG_PATH);
  if (!json.ok) return { error: json.reason };
  const parsed = workspaceConfigSchema.safeParse(json.value);
  return parsed.success
    ? parsed.data
    : { error: `${CONFIG_PATH}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}` };
}

/**
 * `<workspace>/.plangate/config.json` and its hash; a broken file is reported, never half-applied. The file is the
 * repository's: read as untrusted (lib/workspace/read-untrusted-file.ts), a refusal is its error, naming the
 * problem and never quoting the file.
 */
export function readConfigFile(workspace: string): ConfigFile {
  const file = path.join(workspace, CONFIG_PATH);
  let entry: fs.Stats | undefined;
  try {
    entry = fs.lstatSync(file, { throwIfNoEntry: false });
  } catch {
    entry = undefined;
  }
  if (entry === undefined) return NO_FILE;
  const hit = cache.get(file);
  // Only a regular file is cached by its stamp: a link's target may change behind an unchanged link.
  if (entry.isFile() && hit && hit.stamp === stamp(entry)) return hit.file;
  const got = readUntrustedFile(workspace, CONFIG_PATH);
  if (got.status === "missing") return NO_FILE;
  const read: ConfigFile =
    got.status === "refused"
      ? { config: { error: got.reason }, hash: null }
      : { config: parseConfig(got.bytes), hash: createHash("sha256").update(got.bytes).digest("hex") };
  if (cache.size > 1000) cache.clear();
  if (entry.isFile()) cache.set(file, { stamp: stamp(entry), file: read });
  return read;
}

/**
 * The file's content as written, trusted or not. Only the parts that narrow may be used from it without a
 * person's trust: see workspaceConfigFor (lib/workspace/effective-config.ts) for what applies.
 */
export function loadWorkspaceConfig(workspace: string): WorkspaceConfig {
  return readConfigFile(workspace).config;
}
