import type { Db } from "../db/client";
import { narrowConfig, wideningParts } from "./config-trust";
import { getTrust, type TrustView } from "./trust-store";
import { readConfigFile, type ConfigFile, type WorkspaceConfig } from "./workspace-config";

/** A workspace's config as it applies now, beside the file as written. */
export type EffectiveConfig = {
  /** The file as written (untrusted input). */
  raw: WorkspaceConfig;
  /** sha-256 of the file's bytes; null without a (readable) file. */
  hash: string | null;
  /** A person trusted exactly this content. */
  trusted: boolean;
  /** What the file would widen, in words; empty when nothing in it waits for trust. */
  widening: string[];
  /** What applies: the whole file once trusted, only its narrowing parts before. */
  config: WorkspaceConfig;
  /** The trust on record for the workspace (possibly for an earlier content). */
  trust: TrustView | null;
};

// One value per (file content, trusted) so that callers may cache what they build from it by identity.
const built = new WeakMap<WorkspaceConfig, { trusted?: EffectiveConfig; untrusted?: EffectiveConfig }>();

/** Pure apart from its cache: the config that applies for this file and this trust. */
export function effectiveConfig(file: ConfigFile, trust: TrustView | null): EffectiveConfig {
  const trusted = file.hash !== null && file.config.error === undefined && trust?.hash === file.hash;
  let slot = built.get(file.config);
  if (!slot) built.set(file.config, (slot = {}));
  const key = trusted ? "trusted" : "untrusted";
  const hit = slot[key];
  if (hit && hit.trust?.hash === trust?.hash && hit.trust?.trustedAt === trust?.trustedAt) return hit;
  const widening = wideningParts(file.config);
  const made: EffectiveConfig = {
    raw: file.config,
    hash: file.hash,
    trusted,
    widening,
    config: trusted ? file.config : narrowConfig(file.config),
    trust,
  };
  slot[key] = made;
  return made;
}

/** Reads the file and the workspace's trust (one indexed read): trust given or revoked on any instance applies at once. */
export async function workspaceConfigFor(db: Db, workspace: string): Promise<EffectiveConfig> {
  return effectiveConfig(readConfigFile(workspace), await getTrust(db, workspace));
}

/** The config waits for a person: it would widen something, and this content is not trusted. */
export function waitsForTrust(c: EffectiveConfig): boolean {
  return !c.trusted && c.widening.length > 0;
}
