import "server-only";
import type { Selectable } from "kysely";
import { type Conn, kysely } from "./client";
import type { WorkspaceTrust } from "./generated-kysely/types";

/** Home of the WorkspaceTrust table: a person's trust in one content of a workspace's `.plangate/config.json`. */
export type TrustRow = Selectable<WorkspaceTrust>;

const COLUMNS = ["workspace", "hash", "trustedAt", "trustedBy"] as const;

export async function selectTrust(conn: Conn, workspace: string): Promise<TrustRow | undefined> {
  return kysely(conn)
    .selectFrom("WorkspaceTrust")
    .select(COLUMNS)
    .where("workspace", "=", workspace)
    .executeTakeFirst();
}

export async function selectAllTrust(conn: Conn): Promise<TrustRow[]> {
  return kysely(conn).selectFrom("WorkspaceTrust").select(COLUMNS).orderBy("workspace").execute();
}

/** One row per workspace: a new trust replaces the earlier one. */
export async function upsertTrust(conn: Conn, row: TrustRow): Promise<void> {
  const { hash, trustedAt, trustedBy } = row;
  await kysely(conn)
    .insertInto("WorkspaceTrust")
    .values(row)
    .onConflict((oc) => oc.column("workspace").doUpdateSet({ hash, trustedAt, trustedBy }))
    .execute();
}

/** The trust removed, or undefined when there was none. */
export async function deleteTrustRow(conn: Conn, workspace: string): Promise<TrustRow | undefined> {
  return kysely(conn)
    .deleteFrom("WorkspaceTrust")
    .where("workspace", "=", workspace)
    .returning(COLUMNS)
    .executeTakeFirst();
}
