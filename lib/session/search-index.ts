import type { Conn } from "../db/client";
import * as index from "../db/session-log/search-rows";
import type { SearchDoc } from "./log/search-text";

/*
 * The search index lives in lib/db/session-log (its statements) and lib/session/log/search-text (its pure text side).
 * These names stay for their importers; the ones that take a connection also take a caller's SQL runner.
 */
export { ftsQuery, type SearchDoc, searchDocs, searchWords, wholeTermsMatch } from "./log/search-text";
export {
  DOCS_PER_SESSION,
  keySpans,
  SESSION_AMONG_MATCHES,
  sessionAmongMatches,
  type TermQuery,
} from "../db/session-log/search-rows";

type On = Conn;

export const assignSearchKey = (on: On, sessionId: string) => index.assignSearchKey(on, sessionId);
export const indexDocs = (on: On, sessionId: string, docs: readonly SearchDoc[]) =>
  index.indexDocs(on, sessionId, docs);
export const dropDocs = (on: On, sessionId: string) => index.dropDocs(on, sessionId);
export const termsWithPrefix = (on: On, prefix: string, max?: number) => index.termsWithPrefix(on, prefix, max);
export const termQuery = (on: On, words: readonly string[]) => index.termQuery(on, words);
export const fewerMatches = (on: On, match: string, cap: number) => index.fewerMatches(on, match, cap);
export const keysMatching = (on: On, match: string, keys: readonly number[]) => index.keysMatching(on, match, keys);
