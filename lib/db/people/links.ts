import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Role } from "../../auth/rules/rights";
import { newId } from "../../id";
import { type Conn, kysely } from "../client";

/** Home of OneTimeLink: the first start's setup link, invites and password resets, kept as their secret's hash. */
export type LinkPurpose = "setup" | "invite" | "reset";
export type LinkView = {
  id: string;
  purpose: LinkPurpose;
  email: string | null;
  role: Role | null;
  root: string | null;
  expiresAt: Date;
};

const hash = (secret: string) => createHash("sha256").update(secret, "utf8").digest("hex");

export async function createLink(
  conn: Conn,
  input: { purpose: LinkPurpose; email?: string; role?: Role; root?: string; createdBy?: string; ttlMs: number },
): Promise<{ link: LinkView; secret: string }> {
  const secret = randomBytes(24).toString("base64url");
  const link: LinkView = {
    id: newId("lnk"),
    purpose: input.purpose,
    email: input.email?.toLowerCase() ?? null,
    role: input.role ?? null,
    root: input.root ?? null,
    expiresAt: new Date(Date.now() + input.ttlMs),
  };
  await kysely(conn)
    .insertInto("OneTimeLink")
    .values({ ...link, hash: hash(secret), createdBy: input.createdBy ?? null, createdAt: new Date() })
    .execute();
  return { link, secret };
}

/** An unused, unexpired link by its secret; null otherwise. */
export async function findOpenLink(conn: Conn, secret: string, now = new Date()): Promise<LinkView | null> {
  const row = await kysely(conn)
    .selectFrom("OneTimeLink")
    .select(["id", "purpose", "email", "role", "root", "expiresAt"])
    .where("hash", "=", hash(secret))
    .where("usedAt", "is", null)
    .executeTakeFirst();
  if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
  return { ...row, purpose: row.purpose as LinkPurpose, role: row.role as Role | null };
}

/** Marks a link used; false when another request used it first (so a link works exactly once). */
export async function spendLink(conn: Conn, id: string, now = new Date()): Promise<boolean> {
  const result = await kysely(conn)
    .updateTable("OneTimeLink")
    .set({ usedAt: now })
    .where("id", "=", id)
    .where("usedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Any open setup link (the first start prints one only while no account exists). */
export async function dropSetupLinks(conn: Conn): Promise<void> {
  await kysely(conn).deleteFrom("OneTimeLink").where("purpose", "=", "setup").where("usedAt", "is", null).execute();
}

/** An invite still waiting for its person: who it is for, the role it gives, until when, and who made it. */
export type PendingInvite = {
  id: string;
  email: string | null;
  role: Role | null;
  root: string | null;
  expiresAt: Date;
  createdAt: Date;
  createdByName: string | null;
};

/** Unused, unexpired invites, newest first (their secrets are not kept: only their hash). */
export async function listPendingInvites(conn: Conn, now = new Date()): Promise<PendingInvite[]> {
  const rows = await kysely(conn)
    .selectFrom("OneTimeLink as l")
    .leftJoin("User as u", "u.id", "l.createdBy")
    .select(["l.id", "l.email", "l.role", "l.root", "l.expiresAt", "l.createdAt", "u.name as createdByName"])
    .where("l.purpose", "=", "invite")
    .where("l.usedAt", "is", null)
    .where("l.expiresAt", ">", now)
    .orderBy("l.createdAt", "desc")
    .execute();
  return rows.map((r) => ({ ...r, role: r.role as Role | null }));
}

/** An unused invite by id (expired ones too: revoking one tidies the list), or null. */
export async function findUnusedInvite(conn: Conn, id: string): Promise<PendingInvite | null> {
  const row = await kysely(conn)
    .selectFrom("OneTimeLink as l")
    .leftJoin("User as u", "u.id", "l.createdBy")
    .select(["l.id", "l.email", "l.role", "l.root", "l.expiresAt", "l.createdAt", "u.name as createdByName"])
    .where("l.id", "=", id)
    .where("l.purpose", "=", "invite")
    .where("l.usedAt", "is", null)
    .executeTakeFirst();
  return row ? { ...row, role: row.role as Role | null } : null;
}

/** Deletes an unused invite, so its link refuses; false when it was used (or revoked) first. */
export async function deleteUnusedInvite(conn: Conn, id: string): Promise<boolean> {
  const result = await kysely(conn)
    .deleteFrom("OneTimeLink")
    .where("id", "=", id)
    .where("purpose", "=", "invite")
    .where("usedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
