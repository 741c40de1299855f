import { sql, type Db } from "../db/client";
import { AppError } from "../errors";
import { stateFromRow } from "./projection";
import type { SessionState } from "../core/fold";

export type SessionView = {
  id: string;
  title: string;
  workspace: string;
  agent: string;
  model: string;
  mode: string;
  status: string;
  planSlug: string | null;
  parentId: string | null;
  forkedFromId: string | null;
  teamId: string | null;
  role: string | null;
  lastSeq: number;
  lastActivityAt: string;
  createdAt: string;
};

type Row = {
  id: string;
  title: string;
  workspace: string;
  agent: string;
  model: string;
  permissionMode: string;
  status: string;
  planSlug: string | null;
  parentId: string | null;
  forkedFromId: string | null;
  teamId: string | null;
  role: string | null;
  lastSeq: number;
  lastActivityAt: Date | string;
  createdAt: Date | string;
};

const iso = (d: Date | string) => new Date(d).toISOString();

export function sessionView(row: Row): SessionView {
  return {
    id: row.id,
    title: row.title,
    workspace: row.workspace,
    agent: row.agent,
    model: row.model,
    mode: row.permissionMode,
    status: row.status,
    planSlug: row.planSlug,
    parentId: row.parentId,
    forkedFromId: row.forkedFromId,
    teamId: row.teamId,
    role: row.role,
    lastSeq: Number(row.lastSeq),
    lastActivityAt: iso(row.lastActivityAt),
    createdAt: iso(row.createdAt),
  };
}

const COLUMNS = [
  "id",
  "title",
  "workspace",
  "agent",
  "model",
  "permissionMode",
  "status",
  "planSlug",
  "parentId",
  "forkedFromId",
  "teamId",
  "role",
  "lastSeq",
  "lastActivityAt",
  "createdAt",
  "state",
]
  .map((c) => `"${c}"`)
  .join(", ");

/** Reads a session and its state from the projection columns: one indexed row, no log replay. */
export async function getSession(db: Db, id: string): Promise<{ session: SessionView; state: SessionState }> {
  const run = await sql(db);
  const [row] = await run.query<Row & { state: string }>(`SELECT ${COLUMNS} FROM "Session" WHERE "id" = ?`, [id]);
  if (!row) throw new AppError("session_not_found");
  return { session: sessionView(row), state: stateFromRow(row) };
}
