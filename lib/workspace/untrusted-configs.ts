import type { Db } from "../db/client";
import { waitsForTrust, workspaceConfigFor } from "./effective-config";
import { listWorkspaces } from "./list-workspaces";

/** The workspaces (under the roots) whose config would widen something and waits for a person to trust it. */
export async function untrustedConfigs(db: Db, roots: string[]): Promise<{ workspace: string; widening: string[] }[]> {
  const out: { workspace: string; widening: string[] }[] = [];
  for (const workspace of listWorkspaces(roots)) {
    const config = await workspaceConfigFor(db, workspace);
    if (waitsForTrust(config)) out.push({ workspace, widening: config.widening });
  }
  return out;
}
