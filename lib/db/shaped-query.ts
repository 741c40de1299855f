import "server-only";
import type { Compilable, CompiledQuery, RawBuilder } from "kysely";
import { type Executor, onPostgres, readyAdapterOf } from "./client";
import { queryOnAdapter } from "./dialect";
import { readIfNoTransaction } from "./statement-cache";

/** Where a statement compiled once takes a value of each execution: the value named `name`. */
class Slot {
  constructor(readonly name: string) {}
}

/** A named value of the statement: a slot while it is compiled once, the value itself when it is built each time. */
export type Bind = <T = unknown>(name: string) => T;

const toSlot: Bind = <T>(name: string) => new Slot(name) as unknown as T;
/** For a statement built each time (the values are bound directly). */
export const direct =
  (values: Readonly<Record<string, unknown>>): Bind =>
  <T>(name: string) =>
    values[name] as T;

// Shapes of a listing are few (which filters are set, whether a cursor is, how many ids): this many is plenty.
const MAX_SHAPES = 256;

/**
 * A statement whose shape depends only on `key` (and the engine), built and compiled by Kysely once per shape,
 * then run with each call's values bound in place of its slots: building and compiling a listing's statements
 * afresh cost as much CPU as SQLite's running them. `build` must make the same statement for the same key, with
 * every value that varies read through `bind` (never a value in an `is null` test or a literal).
 */
export function shapedQuery<O>() {
  const compiled = new Map<string, CompiledQuery<O>>();
  const bound = (ex: Executor, key: string, values: Readonly<Record<string, unknown>>, build: Build<O>) => {
    const shape = `${onPostgres(ex) ? "pg" : "sqlite"}:${key}`;
    let query = compiled.get(shape);
    if (!query) {
      query = build(toSlot).compile();
      if (compiled.size >= MAX_SHAPES) compiled.clear();
      compiled.set(shape, query);
    }
    return { ...query, parameters: query.parameters.map((p) => (p instanceof Slot ? values[p.name] : p)) };
  };
  const run = (ex: Executor, key: string, values: Readonly<Record<string, unknown>>, build: Build<O>) => {
    const query = bound(ex, key, values, build);
    const adapter = readyAdapterOf(ex);
    const result = adapter ? queryOnAdapter<O>(adapter, query) : ex.executeQuery<O>(query);
    return result.then((r) => r.rows);
  };
  /**
   * SQLite, outside any transaction: the rows at once, committed ones only (statement-cache's readIfNoTransaction),
   * as SQLite stores them; undefined when a transaction is open on the connection, and on PostgreSQL.
   */
  run.now = (
    ex: Executor,
    key: string,
    values: Readonly<Record<string, unknown>>,
    build: Build<O>,
  ): Record<string, unknown>[] | undefined => {
    const adapter = readyAdapterOf(ex);
    if (!adapter || onPostgres(ex)) return undefined;
    const query = bound(ex, key, values, build);
    return readIfNoTransaction(adapter, query.sql, [...query.parameters]);
  };
  return run;
}

type Build<O> = (bind: Bind) => Compilable<O>;

/** A `sql` template as a statement shapedQuery can compile (a template compiles against an executor). */
export function raw<O>(ex: Executor, query: RawBuilder<O>): Compilable<O> {
  return { compile: () => query.compile(ex) };
}
