import type { Db } from "../db/client";
import { AppError } from "../errors";
import { stateFromRow } from "./projection";
import type { SessionState } from "./fold";

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
  id: string; title: string; workspace: string; agent: string; model: string; permissionMode: string; status: string;
  planSlug: string | null; parentId: string | null; forkedFromId: string | null; teamId: string | null; role: string | null;
  lastSeq: number; lastActivityAt: Date; createdAt: Date;
};

export function sessionView(row: Row): SessionView {
  return {
    id: row.id, title: row.title, workspace: row.workspace, agent: row.agent, model: row.model, mode: row.permissionMode,
    status: row.status, planSlug: row.planSlug, parentId: row.parentId, forkedFromId: row.forkedFromId, teamId: row.teamId,
    role: row.role, lastSeq: row.lastSeq, lastActivityAt: row.lastActivityAt.toISOString(), createdAt: row.createdAt.toISOString(),
  };
}

/** Reads a session and its state from the projection columns (one indexed row, no log replay). */
export async function getSession(db: Db, id: string): Promise<{ session: SessionView; state: SessionState }> {
  const row = await db.session.findUnique({ where: { id } });
  if (!row) throw new AppError("session_not_found");
  return { session: sessionView(row), state: stateFromRow(row) };
}
