import "server-only";
import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Executor } from "./client";
import { type Bind, direct } from "./shaped-query";

/**
 * The named values of `underRoots` for these roots: each root, the root with a slash (what a folder under it
 * starts with) and that prefix's length. A root is an absolute path without a trailing slash.
 */
export function rootValues(roots: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    roots.flatMap((root, i) => [
      [`root${i}`, root],
      [`rootPrefix${i}`, `${root}/`],
      [`rootLength${i}`, root.length + 1],
    ]),
  );
}

/**
 * `column` is one of `count` roots or a folder under one (the values from rootValues, through `bind`). Compared
 * exactly with substr, not LIKE: SQLite's LIKE folds case and both engines read `_` and `%` in a path as
 * wildcards, so `/srv/a_b` would cover `/srv/aXb`. No roots: nothing matches.
 */
export function underRoots(column: string, count: number, bind: Bind): RawBuilder<SqlBool> {
  if (count === 0) return sql<SqlBool>`1 = 0`;
  const col = sql.ref(column);
  const one = (i: number) =>
    sql`${col} = ${bind(`root${i}`)} or substr(${col}, 1, ${bind(`rootLength${i}`)}) = ${bind(`rootPrefix${i}`)}`;
  return sql<SqlBool>`(${sql.join(
    Array.from({ length: count }, (_, i) => one(i)),
    sql` or `,
  )})`;
}

/** The ids of the sessions whose workspace is one of `roots` or under one: a list's `sessionId in (…)`. */
export function sessionIdsUnder(k: Executor, roots: readonly string[]) {
  return k
    .selectFrom("Session as rs")
    .select("rs.id")
    .where(underRoots("rs.workspace", roots.length, direct(rootValues(roots))));
}
