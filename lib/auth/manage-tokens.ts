import "server-only";
import { z } from "zod";
import { type Actor, managesPerson, signerOf, TOKEN_SCOPES } from "./rules/rights";
import { type Db, withTransaction } from "../db/client";
import { appendAudit } from "../db/people/audit";
import { membershipsOf } from "../db/people/people";
import { createToken, findToken, listTokens, revokeToken, type TokenView } from "../db/people/tokens";
import { AppError } from "../errors";
import { limited, tokenLimits } from "./limit-attempts";

export const createTokenBody = z
  .object({ name: z.string().trim().min(1).max(100), scope: z.enum(TOKEN_SCOPES) })
  .strict();

/** Tokens are a person's: made by them (signed in, not with another token), listed and revoked by them or an owner. */
function personOf(actor: Actor): { userId: string; name: string } {
  if (actor.kind !== "person")
    throw new AppError("forbidden", "Tokens belong to a person: sign in to make or list yours.");
  return { userId: actor.userId, name: actor.name };
}

/** Whose tokens `actor` may see and revoke besides their own: a person they manage (managesPerson). */
async function manages(db: Db, actor: Actor, userId: string): Promise<boolean> {
  if (actor.kind === "person" && actor.userId === userId) return true;
  return managesPerson(actor, await membershipsOf(db, userId));
}

/** POST /api/tokens: the secret is in this response only; the database keeps its hash. */
export async function makeToken(db: Db, actor: Actor, body: z.infer<typeof createTokenBody>) {
  const person = personOf(actor);
  const signer = signerOf(actor);
  // A flood of tokens (a stolen session minting them) is refused: every token made counts, per person.
  return limited(db, "tokens made", tokenLimits(person.userId), () =>
    withTransaction(db, async (trx) => {
      const made = await createToken(trx, { userId: person.userId, name: body.name, scope: body.scope });
      if (signer)
        await appendAudit(trx, {
          signer,
          kind: "token.created",
          subject: made.token.id,
          detail: { scope: body.scope },
        });
      return made;
    }),
  );
}

/** Yours, and (for an owner) those of the people you manage; the operator sees every token. */
export async function tokensFor(db: Db, actor: Actor): Promise<TokenView[]> {
  if (actor.kind === "operator") return listTokens(db);
  const mine = personOf(actor).userId;
  const all = await listTokens(db);
  const shown = new Map<string, boolean>();
  for (const userId of new Set(all.map((t) => t.userId))) shown.set(userId, await manages(db, actor, userId));
  return all.filter((t) => t.userId === mine || shown.get(t.userId));
}

/** DELETE /api/tokens/:id: the token stops at its next request. */
export async function revokeTokenAs(db: Db, actor: Actor, id: string): Promise<TokenView> {
  const token = await findToken(db, id);
  if (!token) throw new AppError("not_found", "No token has that id.");
  if (!(await manages(db, actor, token.userId)))
    throw new AppError("forbidden", "Only the token's person, or an owner of every root they work in, may revoke it.");
  const signer = signerOf(actor);
  await withTransaction(db, async (trx) => {
    await revokeToken(trx, id);
    if (signer) await appendAudit(trx, { signer, kind: "token.revoked", subject: id });
  });
  return (await findToken(db, id)) ?? token;
}
