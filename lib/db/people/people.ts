import "server-only";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../auth/rules/password";
import type { Membership, Role } from "../../auth/rules/rights";
import { AppError } from "../../errors";
import { type Conn, type Db, kysely, withTransaction } from "../client";
import { newId } from "../../id";
import { isWriteConflict } from "../write-conflict";
import { passwordHasher } from "./password-hasher";
import { revokeTokensOf } from "./tokens";

/**
 * Home of people: the User rows better-auth writes (read here, and deactivated here), their credentials (in
 * better-auth's rows, hashed by its hasher), and Membership (a person's role per workspace root).
 */
export type Person = { id: string; name: string; email: string; deactivatedAt: Date | null; createdAt: Date };

export async function countPeople(conn: Conn): Promise<number> {
  const row = await kysely(conn)
    .selectFrom("User")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function findPerson(conn: Conn, by: { id: string } | { email: string }): Promise<Person | null> {
  let q = kysely(conn).selectFrom("User").select(["id", "name", "email", "deactivatedAt", "createdAt"]);
  q = "id" in by ? q.where("id", "=", by.id) : q.where("email", "=", by.email.toLowerCase());
  return (await q.executeTakeFirst()) ?? null;
}

export async function listPeople(conn: Conn): Promise<(Person & { memberships: Membership[] })[]> {
  const k = kysely(conn);
  const people = await k
    .selectFrom("User")
    .select(["id", "name", "email", "deactivatedAt", "createdAt"])
    .orderBy("createdAt")
    .execute();
  const rows = await k.selectFrom("Membership").select(["userId", "root", "role"]).execute();
  return people.map((p) => ({
    ...p,
    memberships: rows.filter((m) => m.userId === p.id).map((m) => ({ root: m.root, role: m.role as Role })),
  }));
}

export async function membershipsOf(conn: Conn, userId: string): Promise<Membership[]> {
  const rows = await kysely(conn)
    .selectFrom("Membership")
    .select(["root", "role"])
    .where("userId", "=", userId)
    .execute();
  return rows.map((r) => ({ root: r.root, role: r.role as Role }));
}

/** Takes a person's role over a workspace root away (their roles elsewhere stay). */
export async function removeMembership(conn: Conn, userId: string, root: string): Promise<void> {
  await kysely(conn).deleteFrom("Membership").where("userId", "=", userId).where("root", "=", root).execute();
}

/** Gives (or changes) a person's role over a workspace root. */
export async function setMembership(conn: Conn, userId: string, m: Membership): Promise<void> {
  await kysely(conn)
    .insertInto("Membership")
    .values({ userId, root: m.root, role: m.role, createdAt: new Date() })
    .onConflict((oc) => oc.columns(["userId", "root"]).doUpdateSet({ role: m.role }))
    .execute();
}

/**
 * A person with an email and password (the credential account better-auth signs in with) and their roles, in one
 * transaction: a crash leaves either the whole account or nothing (never an account without its role). The rows
 * are better-auth's own shape; the password is hashed with its hasher first. Refused when the email is taken.
 */
export async function createPerson(
  db: Db,
  input: { email: string; name: string; password?: string; memberships: readonly Membership[] },
  /** More writes of the same act (its audit entry, a spent link), on the same transaction. */
  also?: (trx: Conn, person: Person) => Promise<void>,
): Promise<Person> {
  const email = input.email.trim().toLowerCase();
  if (await findPerson(db, { email })) throw new AppError("conflict", `${email} already has an account.`);
  const hash = input.password === undefined ? null : await passwordHash(input.password);
  const now = new Date();
  const person: Person = {
    id: newId("usr"),
    name: input.name.trim() || email,
    email,
    deactivatedAt: null,
    createdAt: now,
  };
  try {
    await withTransaction(db, async (trx) => {
      await trx
        .insertInto("User")
        .values({ ...person, emailVerified: false, image: null, updatedAt: now })
        .execute();
      if (hash !== null)
        await trx
          .insertInto("AuthAccount")
          .values({
            id: newId("acc"),
            accountId: person.id,
            providerId: "credential",
            userId: person.id,
            password: hash,
            createdAt: now,
            updatedAt: now,
          })
          .execute();
      for (const m of input.memberships) await setMembership(trx, person.id, m);
      await also?.(trx, person);
    });
  } catch (error) {
    // Two adds of one email at once: the unique email refuses the second.
    if (isWriteConflict(error)) throw new AppError("conflict", `${email} already has an account.`);
    throw error;
  }
  return person;
}

/** The hash of a new password that better-auth's sign-in checks, after the length rules its sign-in applies. */
async function passwordHash(password: string): Promise<string> {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new AppError("bad_request", `password: at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH)
    throw new AppError("bad_request", `password: at most ${MAX_PASSWORD_LENGTH} characters`);
  return passwordHasher.hash(password);
}

/** What a password reset ended: the person's sign-in sessions and live tokens made before it. */
export type Ended = { sessionsEnded: number; tokensRevoked: number };

/**
 * Sets (or replaces) a person's password (better-auth's hash, on its credential account) and, in the same
 * transaction, ends every sign-in session and token of theirs made before it: whoever knew the old password, held
 * a copied cookie or a token it made is out at their next request. `also`: more writes of the same act (the spent
 * link, its audit entry).
 */
export async function setPassword(
  db: Db,
  userId: string,
  password: string,
  also?: (trx: Conn, ended: Ended) => Promise<void>,
  now = new Date(),
): Promise<Ended> {
  const hash = await passwordHash(password);
  return withTransaction(db, async (trx) => {
    const k = kysely(trx);
    const changed = await k
      .updateTable("AuthAccount")
      .set({ password: hash, updatedAt: now })
      .where("userId", "=", userId)
      .where("providerId", "=", "credential")
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0)
      await k
        .insertInto("AuthAccount")
        .values({
          id: newId("acc"),
          accountId: userId,
          providerId: "credential",
          userId,
          password: hash,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    const sessions = await k.deleteFrom("AuthSession").where("userId", "=", userId).executeTakeFirst();
    const ended = {
      sessionsEnded: Number(sessions.numDeletedRows),
      tokensRevoked: await revokeTokensOf(trx, userId, now),
    };
    await also?.(trx, ended);
    return ended;
  });
}

/** Ends a person's sign-in sessions and tokens at once and keeps them out; their past acts keep their name. */
export async function deactivatePerson(conn: Conn, userId: string, now = new Date()): Promise<void> {
  await withTransaction(conn, async (trx) => {
    await trx.updateTable("User").set({ deactivatedAt: now, updatedAt: now }).where("id", "=", userId).execute();
    await trx.deleteFrom("AuthSession").where("userId", "=", userId).execute();
    await revokeTokensOf(trx, userId, now);
  });
}
