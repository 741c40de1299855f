import type { Db } from "../db/client";
import { findSessionOwner } from "../db/sessions";
import { joinTeam } from "../db/teams/teams";
import { AppError } from "../errors";
import { appendEvents } from "../session/append-events";
import { getSession } from "../session/get-session";
import { isExternalModel } from "../session/external-agents";
import { readEvents } from "../db/session-log/read-events";
import type { TeamView } from "./get-team";

/**
 * A person makes an outside agent's session (Claude Code, OpenCode) a teammate of a team in its workspace: its
 * next plans wait in the lead's mailbox for the lead's people. Never automatic: a team working in the same folder
 * is not a reason to route another person's terminal to it. The plan pending now stays where it is.
 */
export async function joinOutsideAgent(db: Db, team: TeamView, sessionId: string): Promise<void> {
  const { session } = await getSession(db, sessionId);
  if (!isExternalModel(session.model))
    throw new AppError("bad_request", "sessionId: only an outside agent's session joins a team this way.");
  // Its name in the mailbox (and a lead's send_message `to`): the agent and its own session id, as it knows itself.
  const [created] = await readEvents(db, sessionId, { limit: 1 });
  const externalId = created?.type === "session.created" ? created.payload.externalId : undefined;
  const name = `${session.agent}-${(externalId ?? sessionId).slice(0, 12)}`;
  const lead = await findSessionOwner(db, team.leadSessionId);
  if (lead?.workspace !== session.workspace)
    throw new AppError("bad_request", "sessionId: that session works in another workspace than the team's lead.");
  const result = await appendEvents(
    db,
    sessionId,
    (s) =>
      s.team
        ? []
        : [
            {
              type: "team.joined",
              payload: {
                teamId: team.id,
                role: "teammate",
                name,
                leadSessionId: team.leadSessionId,
                requirePlanApproval: true,
              },
            },
          ],
    {
      also: async (tx, appended) => {
        if (appended.events.length > 0) await joinTeam(tx, sessionId, team.id, "teammate");
      },
    },
  );
  if (result.events.length === 0) throw new AppError("conflict", "That session is already in a team.");
}
