import { sql, type Db } from "../db/client";
import { AppError } from "../errors";

/** PATCH /api/teams/:id: whether teammate plans need a person's approval (the lead's model may not give it). */
export async function updateTeam(db: Db, teamId: string, input: { personApproval: boolean }): Promise<void> {
  const changed = await (await sql(db)).execute('UPDATE "Team" SET "personApproval" = ? WHERE "id" = ?', [
    input.personApproval,
    teamId,
  ]);
  if (changed !== 1) throw new AppError("not_found", "No team has that id.");
}
