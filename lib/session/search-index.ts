import type { Conn } from "../db/client";
import type { SqlRunner } from "../db/sql";
import { connOf } from "../db/session-log/legacy";
import * as index from "../db/session-log/search-index";
import type { SearchDoc } from "../core/search-text";

/*
 * The search index lives in lib/db/session-log (its statements) and lib/core/search-text (its pure text side).
 * These names stay for their importers; the ones that take a connection also take a caller's SQL runner.
 */
export { ftsQuery, type SearchDoc, searchDocs, searchWords, wholeTermsMatch } from "../core/search-text";
export {
  DOCS_PER_SESSION,
  keySpans,
  SESSION_AMONG_MATCHES,
  sessionAmongMatches,
  type TermQuery,
} from "../db/session-log/search-index";

type On = SqlRunner | Conn;

export const assignSearchKey = (on: On, sessionId: string) => index.assignSearchKey(connOf(on), sessionId);
export const indexDocs = (on: On, sessionId: string, docs: readonly SearchDoc[]) =>
  index.indexDocs(connOf(on), sessionId, docs);
export const dropDocs = (on: On, sessionId: string) => index.dropDocs(connOf(on), sessionId);
export const termsWithPrefix = (on: On, prefix: string, max?: number) => index.termsWithPrefix(connOf(on), prefix, max);
export const termQuery = (on: On, words: readonly string[]) => index.termQuery(connOf(on), words);
export const fewerMatches = (on: On, match: string, cap: number) => index.fewerMatches(connOf(on), match, cap);
export const keysMatching = (on: On, match: string, keys: readonly number[]) =>
  index.keysMatching(connOf(on), match, keys);
