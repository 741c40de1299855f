import type { Conn, Db } from "../db/client";
import { deleteTrustRow, selectAllTrust, selectTrust, upsertTrust, type TrustRow } from "../db/workspace-trust";
import type { TrustView } from "./views/config-trust-view";

export type { TrustView } from "./views/config-trust-view";

const view = (r: TrustRow): TrustView => ({
  workspace: r.workspace,
  hash: r.hash,
  trustedAt: r.trustedAt.toISOString(),
  trustedBy: r.trustedBy,
});

export async function getTrust(db: Db, workspace: string): Promise<TrustView | null> {
  const row = await selectTrust(db, workspace);
  return row ? view(row) : null;
}

export async function listTrust(db: Db): Promise<TrustView[]> {
  return (await selectAllTrust(db)).map(view);
}

/** Trust replaces the workspace's earlier trust: one content is trusted at a time, until the file changes. */
export async function saveTrust(db: Conn, workspace: string, hash: string, trustedBy: string): Promise<TrustView> {
  const row = { workspace, hash, trustedAt: new Date(), trustedBy };
  await upsertTrust(db, row);
  return view(row);
}

/** Null when nothing was trusted. */
export async function deleteTrust(db: Conn, workspace: string): Promise<TrustView | null> {
  const found = await deleteTrustRow(db, workspace);
  return found ? view(found) : null;
}
