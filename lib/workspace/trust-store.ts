import type { Db } from "../db/client";

/** A person's trust in one content of a workspace's `.plangate/config.json` (home of the WorkspaceTrust table). */
export type TrustView = { workspace: string; hash: string; trustedAt: string; trustedBy: string };

const view = (r: { workspace: string; hash: string; trustedAt: Date; trustedBy: string }): TrustView => ({
  workspace: r.workspace,
  hash: r.hash,
  trustedAt: r.trustedAt.toISOString(),
  trustedBy: r.trustedBy,
});

export async function getTrust(db: Db, workspace: string): Promise<TrustView | null> {
  const row = await db.workspaceTrust.findUnique({ where: { workspace } });
  return row ? view(row) : null;
}

export async function listTrust(db: Db): Promise<TrustView[]> {
  return (await db.workspaceTrust.findMany({ orderBy: { workspace: "asc" } })).map(view);
}

/** Trust replaces the workspace's earlier trust: one content is trusted at a time, until the file changes. */
export async function saveTrust(db: Db, workspace: string, hash: string, trustedBy: string): Promise<TrustView> {
  const at = new Date();
  return view(
    await db.workspaceTrust.upsert({
      where: { workspace },
      create: { workspace, hash, trustedAt: at, trustedBy },
      update: { hash, trustedAt: at, trustedBy },
    }),
  );
}

/** Null when nothing was trusted. */
export async function deleteTrust(db: Db, workspace: string): Promise<TrustView | null> {
  const found = await getTrust(db, workspace);
  if (found) await db.workspaceTrust.deleteMany({ where: { workspace } });
  return found;
}
