import type { Conn } from "../db/client";
import { findTeam, listRecentTeams, listTeamMembers } from "../db/teams/teams";
import { AppError } from "../errors";
import type { SessionState } from "../session/log/fold";
import { stateFromRow } from "../session/log/projection";
import type { MemberView, TeammateStatus, TeamView } from "./views/team-view";

export type { MemberView, TeammateStatus, TeamView } from "./views/team-view";

/** Pure: how the lead reads a teammate's state. */
export function teammateStatus(
  s: Pick<SessionState, "mode" | "status" | "pendingReview" | "verification">,
): TeammateStatus {
  if (s.pendingReview?.kind === "plan-review") return "awaiting_approval";
  if (s.status === "awaiting_permission") return "waiting_for_permission";
  if (s.status === "interrupted") return "interrupted";
  if (s.mode === "plan") return "planning";
  if (s.status === "running") return "executing";
  if (s.verification === "fail") return "verification_failed";
  return s.verification === "unverified" ? "unverified" : "done";
}

export async function getTeam(db: Conn, teamId: string): Promise<TeamView> {
  const team = await findTeam(db, teamId);
  if (!team) throw new AppError("not_found", "No team has that id.");
  const rows = await listTeamMembers(db, teamId);
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
    personApproval: team.personApproval,
    createdAt: team.createdAt.toISOString(),
    lead: members.find((m) => m.sessionId === team.leadSessionId) ?? null,
    teammates: members.filter((m) => m.sessionId !== team.leadSessionId),
  };
}

/** Up to 100 teams, newest first (the session list's team filter). */
export function listTeams(
  db: Conn,
  filter: { roots?: readonly string[] } = {},
): Promise<{ id: string; name: string }[]> {
  return listRecentTeams(db, 100, filter.roots);
}
