import type { Conn } from "../db/client";
import * as index from "../db/session-log/search-rows-pg";

/*
 * PostgreSQL's search index lives in lib/db/session-log/search-rows-pg (its statements) and lib/session/log/search-text
 * (its lexemes). These names stay for their importers; the ones that take a connection also take a SQL runner.
 */
export { quoteLexeme, searchTokens, tsQueryText, tsvectorRows } from "./log/search-text";
export {
  PG_SESSION_AMONG_MATCHES,
  PG_SESSION_RANK,
  pgSessionAmongMatches,
  pgSessionRank,
} from "../db/session-log/search-rows-pg";

type On = Conn;

export const indexDocsPg = (on: On, sessionId: string, bodies: readonly string[]) =>
  index.indexDocsPg(on, sessionId, bodies);
export const dropDocsPg = (on: On, sessionId: string) => index.dropDocsPg(on, sessionId);
export const fewerMatchesPg = (on: On, query: string, cap: number) => index.fewerMatchesPg(on, query, cap);
export const sessionsMatchingPg = (on: On, query: string, ids: readonly string[]) =>
  index.sessionsMatchingPg(on, query, ids);
