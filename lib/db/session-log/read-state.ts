import "server-only";
import { stateFromRow } from "../../session/log/projection";
import type { SessionState } from "../../session/log/fold";
import type { SessionView } from "../../session/views/session-view";
import { type Conn, kysely } from "../client";
import { shapedQuery } from "../shaped-query";

/** The folded state a session's row holds (its projection), or null when there is no such session. */
export async function readSessionState(conn: Conn, sessionId: string): Promise<SessionState | null> {
  const k = kysely(conn);
  const [row] = await stateRows(k, "state", { sessionId }, (bind) =>
    k.selectFrom("Session").select(["state", "lastSeq"]).where("id", "=", bind<string>("sessionId")),
  );
  return row ? stateFromRow(row) : null;
}
// Read on every step of every turn: compiled once (see shapedQuery).
const stateRows = shapedQuery<{ state: string; lastSeq: number }>();
const sessionRows = shapedQuery<SessionViewRow & { state: string }>();

export type { SessionView };

/** The Session columns a SessionView is made of. */
export const SESSION_VIEW_COLUMNS = [
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
] as const;

export type SessionViewRow = {
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

export function sessionView(row: SessionViewRow): SessionView {
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

/** A session and its state from the projection columns: one indexed row, no log replay. Null when absent. */
export async function readSession(
  conn: Conn,
  sessionId: string,
): Promise<{ session: SessionView; state: SessionState } | null> {
  const k = kysely(conn);
  const [row] = await sessionRows(k, "session", { sessionId }, (bind) =>
    k
      .selectFrom("Session")
      .select([...SESSION_VIEW_COLUMNS, "state"])
      .where("id", "=", bind<string>("sessionId")),
  );
  return row ? { session: sessionView(row), state: stateFromRow(row) } : null;
}
