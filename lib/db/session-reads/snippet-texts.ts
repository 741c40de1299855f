import "server-only";
import { type Expression, type SqlBool, sql } from "kysely";
import { type Conn, type Executor, kysely, onPostgres } from "../client";
import { type Bind, shapedQuery } from "../shaped-query";
import { idValues } from "./session-list";

// A search page's snippets: read after the page is chosen, from the listed sessions' own rows.

/** `%word%` for LIKE, its own %, _ and \ escaped (the statement says ESCAPE '\'). */
function containsPattern(word: string): string {
  return `%${word.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
}

/**
 * For each of these sessions, the text a snippet is cut from: its newest plan version holding `word`, else the
 * text of its newest message holding it, read from the listed sessions' own rows in one statement, so the cost
 * follows the page, not the matches. Case does not matter (SQLite's LIKE ignores ASCII case; PostgreSQL's ILIKE).
 */
export async function listSnippetTexts(
  conn: Conn,
  sessionIds: readonly string[],
  word: string,
): Promise<{ id: string; plan: string | null; message: string | null }[]> {
  if (sessionIds.length === 0) return [];
  const k = kysely(conn);
  const values = { ...idValues(sessionIds), pattern: containsPattern(word) };
  return snippetRows(k, `snippets:${sessionIds.length}`, values, (bind) => snippetTexts(k, sessionIds.length, bind));
}

const snippetRows = shapedQuery<{ id: string; plan: string | null; message: string | null }>();

function snippetTexts(k: Executor, count: number, bind: Bind) {
  const pg = onPostgres(k);
  const pattern = bind<string>("pattern");
  const like = (text: Expression<unknown>) =>
    pg ? sql<SqlBool>`${text} ILIKE ${pattern} ESCAPE '\\'` : sql<SqlBool>`${text} LIKE ${pattern} ESCAPE '\\'`;
  // The message's own text, not its JSON: a word that is a key or another field's value must not match.
  const messageText = pg
    ? sql<string | null>`CAST(e."payload" AS json) ->> 'text'`
    : sql<string | null>`e."payload" ->> '$.text'`;
  return k
    .with(
      (w) => w("x").materialized(),
      (db) =>
        db
          .selectFrom("Session as s")
          .where(
            "s.id",
            "in",
            Array.from({ length: count }, (_, i) => bind<string>(`id${i}`)),
          )
          .select((eb) => [
            "s.id",
            eb
              .selectFrom("PlanVersion as v")
              .innerJoin("Plan as p", "p.id", "v.planId")
              .select("v.content")
              .whereRef("p.sessionId", "=", "s.id")
              .where(like(sql.ref("v.content")))
              .orderBy("v.version", "desc")
              .limit(1)
              .as("plan"),
          ]),
    )
    .selectFrom("x")
    .select((eb) => [
      "x.id",
      "x.plan",
      eb
        .case()
        .when("x.plan", "is", null)
        .then(
          eb
            .selectFrom("SessionEvent as e")
            .select(messageText.as("text"))
            .whereRef("e.sessionId", "=", "x.id")
            .where("e.type", "in", ["message.user", "message.assistant"])
            .where(like(messageText))
            .orderBy("e.seq", "desc")
            .limit(1),
        )
        .end()
        .as("message"),
    ]);
}
