import type { Signer } from "../auth/rules/rights";
import type { Db } from "../db/client";
import { appendAudit } from "../db/people/audit";
import { insertTeamWithLead } from "../db/teams/teams";
import { AppError } from "../errors";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import { getSession } from "../session/get-session";

/**
 * Makes a session the lead of a new team (one team per lead; a subagent or a teammate cannot lead).
 * personApproval: every teammate plan must be approved by a person in the mailbox, never by the lead's model. It is
 * on unless `false` is sent (issue 41: a missing field is the safe side); turning it off is an owner's act (the
 * route checks manage), signed by `signer` in the audit log with the team.
 */
export async function createTeam(
  db: Db,
  input: { sessionId: string; name?: string; personApproval?: boolean },
  signer: Signer | null,
): Promise<{ teamId: string }> {
  const { session, state } = await getSession(db, input.sessionId);
  if (state.team)
    throw new AppError("conflict", `That session is already in team ${state.team.id} (as ${state.team.role}).`);
  if (session.parentId) throw new AppError("bad_request", "sessionId: a subagent cannot lead a team.");
  const teamId = newId("team");
  const name = input.name ?? session.title;
  const personApproval = input.personApproval !== false;
  if (!personApproval && !signer)
    throw new AppError("forbidden", "Only a person (an owner) turns person approval off.");
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
          personApproval,
          createdAt: new Date(),
        });
        if (!personApproval && signer)
          await appendAudit(run, {
            signer,
            kind: "team.person_approval",
            sessionId: input.sessionId,
            workspace: session.workspace,
            subject: teamId,
            detail: { personApproval },
          });
      },
    },
  );
  return { teamId };
}
