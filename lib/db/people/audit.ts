import "server-only";
import { credentialOf, type Signer, signedBy } from "../../core/people";
import { newId } from "../../id";
import { type Conn, kysely } from "../client";

/** Home of AuditEntry: every signed act (a decision, an answer, trust, a grant or its revoke, people and tokens). */
export type AuditAct = {
  signer: Signer;
  kind: string;
  sessionId?: string | null;
  workspace?: string | null;
  subject?: string | null;
  detail?: Record<string, unknown>;
  address?: string | null;
};

export type AuditView = {
  id: string;
  at: Date;
  userId: string | null;
  name: string;
  credential: string;
  kind: string;
  sessionId: string | null;
  workspace: string | null;
  subject: string | null;
  detail: Record<string, unknown>;
  address: string | null;
};

/** Appended on the act's own transaction (`conn`), so the record stands exactly when the act does. */
export async function appendAudit(conn: Conn, act: AuditAct, now = new Date()): Promise<void> {
  await kysely(conn)
    .insertInto("AuditEntry")
    .values({
      id: newId("aud", now.getTime()),
      at: now,
      userId: act.signer.by === "person" ? act.signer.userId : null,
      name: signedBy(act.signer),
      credential: credentialOf(act.signer),
      kind: act.kind,
      sessionId: act.sessionId ?? null,
      workspace: act.workspace ?? null,
      subject: act.subject ?? null,
      detail: JSON.stringify(act.detail ?? {}),
      address: act.address ?? null,
    })
    .execute();
}

export type AuditFilter = { userId?: string; workspace?: string; kind?: string; before?: Date; limit?: number };

export async function listAudit(conn: Conn, f: AuditFilter = {}): Promise<AuditView[]> {
  let q = kysely(conn)
    .selectFrom("AuditEntry")
    .selectAll()
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .limit(Math.min(f.limit ?? 200, 1000));
  if (f.userId) q = q.where("userId", "=", f.userId);
  if (f.workspace) q = q.where("workspace", "=", f.workspace);
  if (f.kind) q = q.where("kind", "=", f.kind);
  if (f.before) q = q.where("at", "<", f.before);
  return (await q.execute()).map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
}
