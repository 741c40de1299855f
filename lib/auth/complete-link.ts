import "server-only";
import { z } from "zod";
import type { Conn, Db } from "../db/client";
import { appendAudit } from "../db/people/audit";
import { authFor } from "./better-auth";
import { findOpenLink, spendLink } from "../db/people/links";
import { countPeople, createPerson, findPerson, type Person, setPassword } from "../db/people/people";
import { AppError } from "../errors";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./rules/password";

export const completeLinkBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    email: z.email().max(320).optional(),
    password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(MAX_PASSWORD_LENGTH, `at most ${MAX_PASSWORD_LENGTH} characters`),
  })
  .strict();
export type CompleteLinkBody = z.infer<typeof completeLinkBody>;

/**
 * Uses a one-time link: the first start's setup makes the owner, an invite makes the invited person with the
 * role it names, a reset sets a new password and ends every sign-in session and token the person had. Then signs
 * that person in: the response carries better-auth's session cookie (the only session made after the reset). A
 * link works once (the second use of the same link is refused, even when concurrent).
 */
export async function completeLink(db: Db, secret: string, body: CompleteLinkBody, headers: Headers) {
  const link = await findOpenLink(db, secret);
  if (!link) throw new AppError("not_found", "This link was used already, has expired, or never existed.");
  if (link.purpose === "setup" && (await countPeople(db)) > 0)
    throw new AppError("conflict", "Plangate already has an owner: sign in instead.");
  const email = (link.email ?? body.email)?.toLowerCase();
  if (!email) throw new AppError("bad_request", "email: required");
  const person = await findPerson(db, { email });
  if (link.purpose !== "reset" && person) throw new AppError("conflict", `${email} already has an account: sign in.`);
  const audit = (conn: Conn, p: Person, detail?: Record<string, unknown>) =>
    appendAudit(conn, {
      signer: { by: "person", userId: p.id, name: p.name },
      kind: `link.${link.purpose}`,
      subject: p.email,
      ...(detail ? { detail } : {}),
    });
  if (link.purpose === "reset") {
    if (!person) throw new AppError("not_found", "That account no longer exists.");
    // The new password, the end of every earlier session and token, the spent link and the audit entry: one act.
    await setPassword(db, person.id, body.password, async (trx, ended) => {
      if (!(await spendLink(trx, link.id))) throw new AppError("not_found", "This link was just used.");
      await audit(trx, person, ended);
    });
  } else {
    // The account, its role, the spent link and the audit entry stand or fall together.
    await createPerson(
      db,
      {
        email,
        name: body.name ?? email,
        password: body.password,
        memberships: [{ root: link.root ?? "/", role: link.purpose === "setup" ? "owner" : (link.role ?? "viewer") }],
      },
      async (trx, made) => {
        if (!(await spendLink(trx, link.id))) throw new AppError("not_found", "This link was just used.");
        await audit(trx, made);
      },
    );
  }
  return authFor(db).api.signInEmail({ body: { email, password: body.password }, headers, asResponse: true });
}
