import { z } from "zod";
import type { Actor } from "../auth/rules/rights";
import { type Db, withTransaction } from "../db/client";
import { appendAudit } from "../db/people/audit";
import { findPerson } from "../db/people/people";
import { findSessionWorkspace } from "../db/sessions";
import { addTeamLead, listTeamLeads, removeTeamLead } from "../db/teams/team-leads";
import { AppError } from "../errors";
import { signerFor } from "../auth/authorise";
import { getTeam } from "./get-team";

export const teamLeadBody = z.object({ email: z.string().trim().toLowerCase().email().max(320) }).strict();

/** An owner of the lead session's workspace adds or removes one of the team's lead people (they answer its mailbox). */
export async function changeTeamLead(
  db: Db,
  actor: Actor,
  teamId: string,
  body: z.infer<typeof teamLeadBody>,
  change: "add" | "remove",
) {
  const team = await getTeam(db, teamId);
  const workspace = await findSessionWorkspace(db, team.leadSessionId);
  if (workspace === undefined) throw new AppError("not_found", "The team's lead session no longer exists.");
  const signer = signerFor(actor, "manage", workspace);
  const person = await findPerson(db, { email: body.email });
  if (!person || person.deactivatedAt) throw new AppError("not_found", `No active person has the email ${body.email}.`);
  await withTransaction(db, async (trx) => {
    const changed =
      change === "add"
        ? await addTeamLead(trx, team.id, person.id, signer.by === "person" ? signer.userId : null)
        : await removeTeamLead(trx, team.id, person.id);
    if (changed)
      await appendAudit(trx, {
        signer,
        kind: change === "add" ? "team.lead.added" : "team.lead.removed",
        sessionId: team.leadSessionId,
        workspace,
        subject: person.email,
        detail: { teamId: team.id },
      });
  });
  return listTeamLeads(db, team.id);
}
