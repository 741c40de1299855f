import type { Db } from "../db/client";
import { waitsForTrust, workspaceConfigFor } from "./effective-config";
import { listWorkspaces } from "./list-workspaces";

export type ConfigsToTell = {
  /** Configs that would widen something and wait for a person to trust them. */
  waiting: { workspace: string; widening: string[] }[];
  /** Configs that are not used at all: refused as unreadable (a link out, a FIFO, too large) or invalid. */
  refused: { workspace: string; error: string }[];
};

/** What the start log says of the workspaces under the roots: configs waiting for trust, and configs refused. */
export async function untrustedConfigs(db: Db, roots: string[]): Promise<ConfigsToTell> {
  const out: ConfigsToTell = { waiting: [], refused: [] };
  for (const workspace of listWorkspaces(roots)) {
    const config = await workspaceConfigFor(db, workspace);
    if (config.raw.error !== undefined) out.refused.push({ workspace, error: config.raw.error });
    else if (waitsForTrust(config)) out.waiting.push({ workspace, widening: config.widening });
  }
  return out;
}
