import { sql, type Db } from "../db/client";
import { AppError } from "../errors";
import type { SessionState } from "../core/fold";
import { stateFromRow } from "../session/projection";

export type TeammateStatus =
  | "planning"
  | "awaiting_approval"
  | "waiting_for_permission"
  | "executing"
  | "interrupted"
  | "done";

export type MemberView = {
  sessionId: string;
  name: string;
  role: "lead" | "teammate";
  title: string;
  mode: string;
  status: string;
  teamStatus: TeammateStatus;
};
export type TeamView = {
  id: string;
  name: string;
  leadSessionId: string;
  personApproval: boolean;
  createdAt: string;
  lead: MemberView | null;
  teammates: MemberView[];
};

/** Pure: how the lead reads a teammate's state. */
export function teammateStatus(s: Pick<SessionState, "mode" | "status" | "pendingReview">): TeammateStatus {
  if (s.pendingReview?.kind === "plan-review") return "awaiting_approval";
  if (s.status === "awaiting_permission") return "waiting_for_permission";
  if (s.status === "interrupted") return "interrupted";
  if (s.mode === "plan") return "planning";
  return s.status === "running" ? "executing" : "done";
}

type MemberRow = {
  id: string;
  title: string;
  role: string | null;
  state: string;
  lastSeq: number;
  createdAt: string | Date;
};

export async function getTeam(db: Db, teamId: string): Promise<TeamView> {
  const run = await sql(db);
  const [team] = await run.query<{
    id: string;
    name: string;
    leadSessionId: string;
    personApproval: boolean;
    createdAt: string | Date;
  }>('SELECT "id", "name", "leadSessionId", "personApproval", "createdAt" FROM "Team" WHERE "id" = ?', [teamId]);
  if (!team) throw new AppError("not_found", "No team has that id.");
  const rows = await run.query<MemberRow>(
    'SELECT "id", "title", "role", "state", "lastSeq", "createdAt" FROM "Session" WHERE "teamId" = ? ORDER BY "createdAt", "id"',
    [teamId],
  );
  const members = rows.map((r): MemberView => {
    const s = stateFromRow(r);
    return {
      sessionId: r.id,
      name: s.team?.name ?? r.title,
      role: r.role === "lead" ? "lead" : "teammate",
      title: r.title,
      mode: s.mode,
      status: s.status,
      teamStatus: teammateStatus(s),
    };
  });
  return {
    id: team.id,
    name: team.name,
    leadSessionId: team.leadSessionId,
    personApproval: team.personApproval === true,
    createdAt: new Date(team.createdAt).toISOString(),
    lead: members.find((m) => m.sessionId === team.leadSessionId) ?? null,
    teammates: members.filter((m) => m.sessionId !== team.leadSessionId),
  };
}

/** A teammate's plan review, decided by its lead through the mailbox (never by the browser review route). */
export function isLeadReview(review: { intent: unknown }): boolean {
  return (
    typeof review.intent === "object" &&
    review.intent !== null &&
    (review.intent as { approver?: unknown }).approver === "lead"
  );
}
