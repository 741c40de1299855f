import type { Db } from "../db/client";
import { insertTeamWithLead } from "../db/teams/teams";
import { AppError } from "../errors";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import { getSession } from "../session/get-session";

/**
 * Makes a session the lead of a new team (one team per lead; a subagent or a teammate cannot lead).
 * personApproval: every teammate plan must be approved by a person in the mailbox, never by the lead's model.
 */
export async function createTeam(
  db: Db,
  input: { sessionId: string; name?: string; personApproval?: boolean },
): Promise<{ teamId: string }> {
  const { session, state } = await getSession(db, input.sessionId);
  if (state.team)
    throw new AppError("conflict", `That session is already in team ${state.team.id} (as ${state.team.role}).`);
  if (session.parentId) throw new AppError("bad_request", "sessionId: a subagent cannot lead a team.");
  const teamId = newId("team");
  const name = input.name ?? session.title;
  await appendEvents(
    db,
    input.sessionId,
    (s) =>
      s.team
        ? []
        : [{ type: "team.joined", payload: { teamId, role: "lead", name: "lead", leadSessionId: input.sessionId } }],
    {
      also: async (run, result) => {
        if (result.events.length === 0) throw new AppError("conflict", "That session joined a team meanwhile.");
        await insertTeamWithLead(run, {
          id: teamId,
          name,
          leadSessionId: input.sessionId,
          personApproval: input.personApproval === true,
          createdAt: new Date(),
        });
      },
    },
  );
  return { teamId };
}
