import "server-only";
import { type Actor, signerOf } from "./rules/rights";
import { type Db, withTransaction } from "../db/client";
import { appendAudit } from "../db/people/audit";
import { removePasskey } from "../db/people/passkeys";
import { AppError } from "../errors";

/**
 * DELETE /api/passkeys/:id: a signed-in person removes one of their own passkeys (a lost device). Only the
 * person, never a token; another person's passkey is "not found", so its id tells nothing.
 */
export async function removeOwnPasskey(db: Db, actor: Actor, id: string): Promise<void> {
  const signer = signerOf(actor);
  if (actor.kind !== "person" || !signer)
    throw new AppError("forbidden", "Passkeys belong to a person: sign in to remove yours.");
  await withTransaction(db, async (trx) => {
    if (!(await removePasskey(trx, actor.userId, id)))
      throw new AppError("not_found", "You have no passkey with that id.");
    await appendAudit(trx, { signer, kind: "passkey.removed", subject: id });
  });
}
