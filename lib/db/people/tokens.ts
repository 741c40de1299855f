import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { type Membership, rolesInRows, type TokenScope } from "../../auth/rules/rights";
import { newId } from "../../id";
import { type Conn, kysely } from "../client";
import { shapedQuery } from "../shaped-query";

/** Home of ApiToken: scoped tokens, kept as the SHA-256 of their secret; shown once, revocable. */
export type TokenView = {
  id: string;
  userId: string;
  name: string;
  scope: TokenScope;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

/** Tokens start with their kind, so a leaked one is recognisable (and secret scanners can match it). */
export const TOKEN_PREFIX = "pgt_";

export const hashToken = (secret: string) => createHash("sha256").update(secret, "utf8").digest("hex");

const COLUMNS = ["id", "userId", "name", "scope", "createdAt", "lastUsedAt", "revokedAt"] as const;

export async function createToken(
  conn: Conn,
  input: { userId: string; name: string; scope: TokenScope },
): Promise<{ token: TokenView; secret: string }> {
  const secret = `${TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
  const token: TokenView = { id: newId("tok"), ...input, createdAt: new Date(), lastUsedAt: null, revokedAt: null };
  await kysely(conn)
    .insertInto("ApiToken")
    .values({ ...token, hash: hashToken(secret) })
    .execute();
  return { token, secret };
}

/**
 * A live token by its secret, with its person and their roles, in one indexed lookup; null when unknown,
 * revoked or its person deactivated.
 */
export async function findLiveToken(
  conn: Conn,
  secret: string,
): Promise<(TokenView & { personName: string; personEmail: string; memberships: Membership[] }) | null> {
  const k = kysely(conn);
  const rows = await liveTokenRows(k, "live", { hash: hashToken(secret) }, (bind) =>
    k
      .selectFrom("ApiToken as t")
      .innerJoin("User as u", "u.id", "t.userId")
      .leftJoin("Membership as m", "m.userId", "t.userId")
      .select(COLUMNS.map((c) => `t.${c}` as const))
      .select(["u.name as personName", "u.email as personEmail", "m.root", "m.role"])
      .where("t.hash", "=", bind<string>("hash"))
      .where("t.revokedAt", "is", null)
      .where("u.deactivatedAt", "is", null),
  );
  const [first] = rows;
  if (!first) return null;
  const { root: _root, role: _role, ...token } = first;
  return { ...token, scope: token.scope as TokenScope, memberships: rolesInRows(rows) };
}

// Every request with a token runs it: compiled once, not built afresh each time.
const liveTokenRows = shapedQuery<
  Omit<TokenView, "scope"> & {
    scope: string;
    personName: string;
    personEmail: string;
    root: string | null;
    role: string | null;
  }
>();

// Last use is shown to the minute: a busy agent's token is written at most once a minute, not on every call.
const LAST_USE_STEP_MS = 60_000;

export async function touchToken(conn: Conn, token: TokenView, now = new Date()): Promise<void> {
  if (token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() < LAST_USE_STEP_MS) return;
  await kysely(conn).updateTable("ApiToken").set({ lastUsedAt: now }).where("id", "=", token.id).execute();
}

export async function listTokens(conn: Conn, userId?: string): Promise<TokenView[]> {
  let q = kysely(conn).selectFrom("ApiToken").select(COLUMNS).orderBy("createdAt", "desc");
  if (userId !== undefined) q = q.where("userId", "=", userId);
  return (await q.execute()).map((r) => ({ ...r, scope: r.scope as TokenScope }));
}

export async function findToken(conn: Conn, id: string): Promise<TokenView | null> {
  const row = await kysely(conn).selectFrom("ApiToken").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? { ...row, scope: row.scope as TokenScope } : null;
}

/** Revokes a token: it stops at the next request it is presented with. */
export async function revokeToken(conn: Conn, id: string, now = new Date()): Promise<void> {
  await kysely(conn)
    .updateTable("ApiToken")
    .set({ revokedAt: now })
    .where("id", "=", id)
    .where("revokedAt", "is", null)
    .execute();
}

/** Revokes every live token of a person (a password reset, a deactivation); how many it revoked. */
export async function revokeTokensOf(conn: Conn, userId: string, now = new Date()): Promise<number> {
  const result = await kysely(conn)
    .updateTable("ApiToken")
    .set({ revokedAt: now })
    .where("userId", "=", userId)
    .where("revokedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
