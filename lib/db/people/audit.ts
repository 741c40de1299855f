import "server-only";
import type { AuditRow } from "../../auth/views/audit-csv";
import { credentialOf, type Signer, signedBy } from "../../auth/rules/rights";
import { newId } from "../../id";
import { type Conn, kysely } from "../client";
import { direct } from "../shaped-query";
import { rootValues, underRoots } from "../within-roots";

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

/** A recorded act as the Audit page and its exports show it. */
export type AuditView = AuditRow & { id: string; userId: string | null };

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

/** Keyset position in the log: the last listed act's time and id (ids break ties between acts of one instant). */
export type AuditCursor = { at: Date; id: string };

/** `roots`: only acts in a workspace that is one of these roots or under one (acts with no workspace drop out). */
export type AuditFilter = {
  userId?: string;
  workspace?: string;
  kind?: string;
  /** The acts older than this position (the page after it). */
  after?: AuditCursor;
  roots?: readonly string[];
};

/** One page of the log, newest first: `limit + 1` rows at most, the extra one telling that a next page exists. */
export async function listAudit(conn: Conn, f: AuditFilter, limit: number): Promise<AuditView[]> {
  let q = kysely(conn)
    .selectFrom("AuditEntry")
    .selectAll()
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1);
  if (f.userId) q = q.where("userId", "=", f.userId);
  if (f.workspace) q = q.where("workspace", "=", f.workspace);
  if (f.kind) q = q.where("kind", "=", f.kind);
  // A range on `at` plus a tie-break rather than one OR, so that the index on `at` is walked and stops at the limit.
  const after = f.after;
  if (after) q = q.where("at", "<=", after.at).where((eb) => eb.or([eb("at", "<", after.at), eb("id", "<", after.id)]));
  const roots = f.roots;
  if (roots) q = q.where(underRoots("workspace", roots.length, direct(rootValues(roots))));
  return (await q.execute()).map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
}
