import "server-only";
import type { Selectable } from "kysely";
import { type Conn, kysely } from "../client";
import type { PermissionGrant } from "../generated-kysely/types";

/** Home of the PermissionGrant table: saved "always" replies. */
export type GrantRow = Omit<Selectable<PermissionGrant>, "action">;

export type GrantFilter = (
  | { sessionId: string; workspace: string } // the session's own grants and its workspace's
  | { workspace: string } // every grant made in the workspace
) & { actor?: string };

const COLUMNS = [
  "id",
  "scope",
  "sessionId",
  "workspace",
  "permission",
  "pattern",
  "exact",
  "actor",
  "createdAt",
] as const;

export async function selectGrants(conn: Conn, where: GrantFilter): Promise<GrantRow[]> {
  let q = kysely(conn).selectFrom("PermissionGrant").select(COLUMNS);
  if ("sessionId" in where) {
    const { sessionId, workspace } = where;
    q = q.where((eb) =>
      eb.or([
        eb.and([eb("scope", "=", "session"), eb("sessionId", "=", sessionId)]),
        eb.and([eb("scope", "=", "workspace"), eb("workspace", "=", workspace)]),
      ]),
    );
  } else {
    q = q.where("workspace", "=", where.workspace);
  }
  if (where.actor !== undefined) q = q.where("actor", "=", where.actor);
  return q.orderBy("createdAt").orderBy("id").execute();
}

export type NewGrantRow = {
  id: string;
  scope: "session" | "workspace";
  /** Null for a workspace grant. */
  sessionId: string | null;
  workspace: string;
  permission: string;
  pattern: string;
  exact: boolean;
  actor: string;
  createdAt: Date;
};

export async function insertGrants(conn: Conn, rows: readonly NewGrantRow[]): Promise<void> {
  if (rows.length === 0) return;
  await kysely(conn)
    .insertInto("PermissionGrant")
    .values(rows.map((r) => ({ ...r, action: "allow" })))
    .execute();
}

/** The grant as it was, or undefined when there was none. */
export async function deleteGrant(conn: Conn, id: string): Promise<GrantRow | undefined> {
  return kysely(conn).deleteFrom("PermissionGrant").where("id", "=", id).returning(COLUMNS).executeTakeFirst();
}
