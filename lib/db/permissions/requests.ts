import "server-only";
import type { Selectable } from "kysely";
import { credentialOf, type Signer, signedBy } from "../../auth/rules/rights";
import { type Conn, kysely } from "../client";
import { appendAudit } from "../people/audit";
import type { PermissionRequest } from "../generated-kysely/types";
import { sessionIdsUnder } from "../within-roots";

/** Home of the PermissionRequest table: the only place a request is stored or changes status. */
export type RequestRow = Omit<Selectable<PermissionRequest>, "reply" | "repliedAt">;

/** A reply moves a request out of pending; the status is the reply itself. */
export type RequestReply = "once" | "always" | "reject";

export type RequestFilter = {
  id?: string;
  sessionId?: string;
  status?: string;
  toolCallId?: string;
  /** Requests of every session in this workspace. */
  workspace?: string;
  /** Only requests of sessions whose workspace is one of these roots or under one. */
  roots?: readonly string[];
};

const COLUMNS = [
  "id",
  "sessionId",
  "toolCallId",
  "tool",
  "permission",
  "patterns",
  "always",
  "metadata",
  "status",
  "message",
  "scope",
  "deciderId",
  "deciderName",
  "credential",
  "createdAt",
] as const;

export async function selectRequests(conn: Conn, where: RequestFilter): Promise<RequestRow[]> {
  let q = kysely(conn).selectFrom("PermissionRequest").select(COLUMNS);
  if (where.id !== undefined) q = q.where("id", "=", where.id);
  if (where.sessionId !== undefined) q = q.where("sessionId", "=", where.sessionId);
  if (where.status !== undefined) q = q.where("status", "=", where.status);
  if (where.toolCallId !== undefined) q = q.where("toolCallId", "=", where.toolCallId);
  const workspace = where.workspace;
  if (workspace !== undefined)
    q = q.where("sessionId", "in", (eb) =>
      eb.selectFrom("Session").select("Session.id").where("Session.workspace", "=", workspace),
    );
  const roots = where.roots;
  if (roots) q = q.where("sessionId", "in", sessionIdsUnder(kysely(conn), roots));
  return q.orderBy("createdAt").orderBy("id").execute();
}

/** A new ask, stored pending; patterns, always and metadata are JSON text. */
export type NewRequestRow = {
  id: string;
  sessionId: string;
  toolCallId: string;
  tool: string;
  permission: string;
  patterns: string[];
  always: string[];
  metadata: Record<string, unknown>;
};

export async function insertRequests(conn: Conn, rows: readonly NewRequestRow[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  await kysely(conn)
    .insertInto("PermissionRequest")
    .values(
      rows.map((r) => ({
        id: r.id,
        sessionId: r.sessionId,
        toolCallId: r.toolCallId,
        tool: r.tool,
        permission: r.permission,
        patterns: JSON.stringify(r.patterns),
        always: JSON.stringify(r.always),
        metadata: JSON.stringify(r.metadata),
        status: "pending",
        createdAt: at,
      })),
    )
    .execute();
}

/**
 * Answers a request that is still pending; false when it was already answered (the first reply wins). Run in
 * the transaction that appends the reply's event, so the row and the log agree.
 */
export async function replyToRequest(
  conn: Conn,
  id: string,
  reply: { status: RequestReply; message: string | null; scope?: string | null; at: Date; signer?: Signer },
): Promise<boolean> {
  const signer = reply.signer;
  const r = await kysely(conn)
    .updateTable("PermissionRequest")
    .set({
      status: reply.status,
      reply: reply.status,
      message: reply.message,
      ...(reply.scope !== undefined ? { scope: reply.scope } : {}),
      repliedAt: reply.at,
      ...(signer
        ? {
            deciderId: signer.by === "person" ? signer.userId : null,
            deciderName: signedBy(signer),
            credential: credentialOf(signer),
          }
        : {}),
    })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  const won = Number(r.numUpdatedRows) === 1;
  if (won && signer)
    await appendAudit(conn, {
      signer,
      kind: `permission.${reply.status}`,
      subject: id,
      detail: { scope: reply.scope },
    });
  return won;
}

/** The session a request belongs to, as its row has it: the workspace and the model (an outside agent's or not). */
export async function sessionOfRequest(
  conn: Conn,
  requestId: string,
): Promise<{ sessionId: string; workspace: string; model: string } | undefined> {
  return kysely(conn)
    .selectFrom("PermissionRequest as r")
    .innerJoin("Session as s", "s.id", "r.sessionId")
    .select(["s.id as sessionId", "s.workspace", "s.model"])
    .where("r.id", "=", requestId)
    .executeTakeFirst();
}
