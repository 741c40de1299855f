import type { Db } from "../db/client";
import { setTeamPersonApproval } from "../db/teams/teams";
import { AppError } from "../errors";

/** PATCH /api/teams/:id: whether teammate plans need a person's approval (the lead's model may not give it). */
export async function updateTeam(db: Db, teamId: string, input: { personApproval: boolean }): Promise<void> {
  if (!(await setTeamPersonApproval(db, teamId, input.personApproval)))
    throw new AppError("not_found", "No team has that id.");
}
