import "server-only";
import { type Expression, type SqlBool, sql } from "kysely";
import { ftsQuery, tsQueryText } from "../../session/log/search-text";
import { type Conn, type Executor, kysely, onPostgres } from "../client";
import { type Bind, direct, shapedQuery } from "../shaped-query";
import { rootValues, underRoots } from "../within-roots";
import { SESSION_VIEW_COLUMNS, type SessionViewRow } from "../session-log/read-state";
import { fewerMatches, keysMatching, sessionAmongMatches, termQuery } from "../session-log/search-rows";
import {
  fewerMatchesPg,
  pgSessionAmongMatches,
  pgSessionRank,
  sessionsMatchingPg,
} from "../session-log/search-rows-pg";

/** Equality filters of a listing, ANDed; `roots`: only sessions whose workspace is one of these or under one. */
export type SessionFilter = {
  status?: string;
  mode?: string;
  workspace?: string;
  team?: string;
  roots?: readonly string[];
};
/** Keyset position: the last listed session's activity (ms) and id. */
export type ListCursor = { at: number; id: string };
/** A listed session's row: its view columns, its latest plan's status and, for a PostgreSQL search, its rank. */
export type SessionListRow = SessionViewRow & { planStatus: string | null; rank?: number | null };

/**
 * How far a search reads before it changes plan: each round, the count may read `docsPerCandidate` rowids for
 * every session the walk would look at. Walking a session costs ~3 µs (its row, its share of one range read),
 * reading a rowid ~0.1 µs (50k sessions), so 32 gives the two halves of a round about the same time. Tests set 0
 * (walk only), Infinity (set only), or 1 (switch from one to the other early).
 */
export type SearchBudget = { docsPerCandidate: number };

const COLUMNS = SESSION_VIEW_COLUMNS.map((c) => `s.${c}` as const);

const sessions = (k: Executor) => k.selectFrom("Session as s");
type Sessions = ReturnType<typeof sessions>;
type Cond = ReturnType<typeof sessionAmongMatches> | ((q: Sessions) => Sessions);

/** The values a listing's statement binds, by name: its filters and its cursor. */
function listValues(filter: SessionFilter, after: ListCursor | undefined): Record<string, unknown> {
  const { status, mode, workspace, team } = filter;
  return {
    status,
    mode,
    workspace,
    team,
    at: after ? new Date(after.at) : undefined,
    afterId: after?.id,
    ...rootValues(filter.roots ?? []),
  };
}

/** What decides a listing statement's shape: which filters are set, and whether a cursor is. */
const shapeOf = (filter: SessionFilter, after: ListCursor | undefined) =>
  [filter.status, filter.mode, filter.workspace, filter.team, after]
    .map((v) => (v === undefined || v === "" ? 0 : 1))
    .join("") + (filter.roots ? `r${filter.roots.length}` : "");

/**
 * The filters and the cursor on `s`, plus any further conditions (a search's matches, a page of ids). Values come
 * through `bind` (see shapedQuery), so the statement is compiled once per shape.
 */
function narrowed(
  q: Sessions,
  filter: SessionFilter,
  after: ListCursor | undefined,
  bind: Bind,
  ...more: Cond[]
): Sessions {
  let out = q;
  if (filter.status) out = out.where("s.status", "=", bind<string>("status"));
  if (filter.mode) out = out.where("s.permissionMode", "=", bind<string>("mode"));
  if (filter.workspace) out = out.where("s.workspace", "=", bind<string>("workspace"));
  if (filter.team) out = out.where("s.teamId", "=", bind<string>("team"));
  if (filter.roots) out = out.where(underRoots("s.workspace", filter.roots.length, bind));
  // A range on lastActivityAt plus a tie-break, not one OR: the OR form makes SQLite gather and sort every older
  // session (a "multi-index OR"), where a range walks the index newest first and stops at the limit.
  if (after) {
    const at = bind<Date>("at");
    out = out
      .where("s.lastActivityAt", "<=", at)
      .where((eb) => eb.or([eb("s.lastActivityAt", "<", at), eb("s.id", "<", bind<string>("afterId"))]));
  }
  for (const c of more) out = typeof c === "function" ? c(out) : out.where(c);
  return out;
}
const idIn = (count: number, bind: Bind) => (q: Sessions) =>
  q.where(
    "s.id",
    "in",
    Array.from({ length: count }, (_, i) => bind<string>(`id${i}`)),
  );
export const idValues = (ids: readonly string[]) => Object.fromEntries(ids.map((id, i) => [`id${i}`, id]));
const NO_FILTER: SessionFilter = {};
const listedRows = shapedQuery<SessionListRow>();
const walkedRows = shapedQuery<{ id: string; at: Date; key: number | null }>();

const newestFirst = <Q extends Sessions>(q: Q) => q.orderBy("s.lastActivityAt", "desc").orderBy("s.id", "desc");

/** Listed rows newest first: the view columns and the latest plan's status, a column of every listing. */
function selectRows(where: Sessions, limit: number | unknown) {
  return newestFirst(where)
    .select(COLUMNS)
    .select((eb) =>
      eb
        .selectFrom("Plan as p")
        .select("p.status")
        .whereRef("p.sessionId", "=", "s.id")
        .orderBy("p.updatedAt", "desc")
        .limit(1)
        .as("planStatus"),
    )
    .limit(limit as number);
}

/** selectRows, compiled once per shape (`key`), with `values` bound (plus `limit`). */
function listed(
  k: Executor,
  key: string,
  values: Record<string, unknown>,
  limit: number,
  where: (bind: Bind) => Sessions,
): Promise<SessionListRow[]> {
  return listedRows(k, key, { ...values, limit }, (bind) => selectRows(where(bind), bind("limit")));
}

/** One page of sessions (limit + 1 rows, so that a next page shows), newest activity first. */
export async function listSessionRows(
  conn: Conn,
  filter: SessionFilter,
  after: ListCursor | undefined,
  limit: number,
): Promise<SessionListRow[]> {
  const k = kysely(conn);
  const values = listValues(filter, after);
  return listed(k, `list:${shapeOf(filter, after)}`, values, limit + 1, (bind) =>
    narrowed(sessions(k), filter, after, bind),
  );
}

/**
 * A search's page (limit + 1 rows), by one of two plans that give the same rows. Few matches: take them all
 * from the index and sort (cost follows the matches). Many: walk the sessions newest first, as the list does,
 * and read the index only over the walked sessions' rowid ranges (cost follows the page). Which is cheaper is
 * not known up front, so rounds alternate a bounded count with a bounded walk, each four times the last, and the
 * first to finish answers: never far from the cheaper plan, whether a word is in every session or a few old ones.
 */
export async function searchSessionRows(
  conn: Conn,
  filter: SessionFilter,
  after: ListCursor | undefined,
  words: string[],
  limit: number,
  budget: SearchBudget,
): Promise<SessionListRow[]> {
  const k = kysely(conn);
  if (onPostgres(k)) return searchRowsPg(k, filter, after, words, limit, budget);
  const terms = await termQuery(k, words);
  if (terms.kind === "nothing") return [];
  if (terms.kind === "prefix") {
    const match = ftsQuery(words.join(" "));
    if (match === null) return [];
    const values = { ...listValues(filter, after), match };
    return listed(k, `among:${shapeOf(filter, after)}`, values, limit + 1, (bind) =>
      narrowed(sessions(k), filter, after, bind, sessionAmongMatches(bind<string>("match"))),
    );
  }
  const { match } = terms;
  const hits: string[] = [];
  let from = after;
  const among = (bind: Bind) => sessionAmongMatches(bind<string>("match"));
  for (let chunk = limit + 1; ; chunk *= 4) {
    if (await fewerMatches(k, match, chunk * budget.docsPerCandidate))
      return listed(k, `among:${shapeOf(filter, after)}`, { ...listValues(filter, after), match }, limit + 1, (bind) =>
        narrowed(sessions(k), filter, after, bind, among(bind)),
      );
    const walkValues = { ...listValues(filter, from), chunk };
    const walked = await walkedRows(k, `walk:${shapeOf(filter, from)}`, walkValues, (bind) =>
      newestFirst(narrowed(sessions(k), filter, from, bind))
        .select(["s.id", "s.lastActivityAt as at", "s.searchKey as key"])
        .limit(bind<number>("chunk")),
    );
    const matched = await keysMatching(
      k,
      match,
      walked.flatMap((c) => (c.key === null ? [] : [c.key])),
    );
    hits.push(...walked.filter((c) => c.key !== null && matched.has(c.key)).map((c) => c.id));
    const last = walked.at(-1);
    if (hits.length > limit || walked.length < chunk || !last) {
      const page = hits.slice(0, limit + 1);
      if (page.length === 0) return [];
      return listed(k, `ids:${page.length}`, idValues(page), limit + 1, (bind) =>
        narrowed(sessions(k), NO_FILTER, undefined, bind, idIn(page.length, bind)),
      );
    }
    from = { at: last.at.getTime(), id: last.id };
  }
}

/**
 * PostgreSQL's search page: searchSessionRows' two plans and rounds, on the tsvector rows. The planner is not
 * left to choose: it knows only a sample's most common lexemes (a rarer word's count is a fixed guess), and one
 * EXISTS statement, left to it, walked all 50k sessions of a test database for a word in 5 of them (0.3 s) while
 * this takes the GIN path within a round. The page keeps the list's order rather than the rank's: the keyset
 * cursor on (lastActivityAt, id) stays exact, and a common word's page costs what the page does, where ranking
 * would score every match first. Each row still carries its rank, computed for the page's rows only.
 */
async function searchRowsPg(
  k: Executor,
  filter: SessionFilter,
  after: ListCursor | undefined,
  words: string[],
  limit: number,
  budget: SearchBudget,
): Promise<SessionListRow[]> {
  const query = tsQueryText(words);
  if (query === null) return [];
  // The rank is computed in the outer query, over the page's ids only.
  const ranked = (where: Sessions) =>
    newestFirst(
      k
        .selectFrom(
          newestFirst(where)
            .select("s.id")
            .limit(limit + 1)
            .as("page"),
        )
        .innerJoin("Session as s", "s.id", "page.id"),
    )
      .select(COLUMNS)
      .select((eb) => [
        eb
          .selectFrom("Plan as p")
          .select("p.status")
          .whereRef("p.sessionId", "=", "s.id")
          .orderBy("p.updatedAt", "desc")
          .limit(1)
          .as("planStatus"),
        pgSessionRank(query).as("rank"),
      ])
      .execute();
  const hits: string[] = [];
  let from = after;
  for (let chunk = limit + 1; ; chunk *= 4) {
    if (await fewerMatchesPg(k, query, chunk * budget.docsPerCandidate))
      return ranked(
        narrowed(sessions(k), filter, after, direct(listValues(filter, after)), pgSessionAmongMatches(query)),
      );
    const walked = await newestFirst(narrowed(sessions(k), filter, from, direct(listValues(filter, from))))
      .select(["s.id", "s.lastActivityAt as at"])
      .limit(chunk)
      .execute();
    const matched = await sessionsMatchingPg(
      k,
      query,
      walked.map((c) => c.id),
    );
    hits.push(...walked.filter((c) => matched.has(c.id)).map((c) => c.id));
    const last = walked.at(-1);
    if (hits.length > limit || walked.length < chunk || !last) {
      const page = hits.slice(0, limit + 1);
      return page.length
        ? ranked(
            narrowed(
              sessions(k),
              NO_FILTER,
              undefined,
              direct(idValues(page)),
              idIn(page.length, direct(idValues(page))),
            ),
          )
        : [];
    }
    from = { at: last.at.getTime(), id: last.id };
  }
}
