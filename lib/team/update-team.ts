import type { Signer } from "../auth/rules/rights";
import { type Db, withTransaction } from "../db/client";
import { appendAudit } from "../db/people/audit";
import { findSessionWorkspace } from "../db/sessions";
import { setTeamPersonApproval } from "../db/teams/teams";
import { AppError } from "../errors";
import { getTeam } from "./get-team";

/**
 * PATCH /api/teams/:id: whether teammate plans need a person's approval (the lead's model may not give it). An
 * owner's act (the route checks manage), signed in the audit log with the change.
 */
export async function updateTeam(
  db: Db,
  teamId: string,
  input: { personApproval: boolean },
  signer: Signer,
): Promise<void> {
  const team = await getTeam(db, teamId);
  const workspace = (await findSessionWorkspace(db, team.leadSessionId)) ?? null;
  await withTransaction(db, async (run) => {
    if (!(await setTeamPersonApproval(run, teamId, input.personApproval)))
      throw new AppError("not_found", "No team has that id.");
    await appendAudit(run, {
      signer,
      kind: "team.person_approval",
      sessionId: team.leadSessionId,
      workspace,
      subject: teamId,
      detail: { personApproval: input.personApproval },
    });
  });
}
