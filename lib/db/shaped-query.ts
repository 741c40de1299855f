import "server-only";
import type { Compilable, CompiledQuery, RawBuilder } from "kysely";
import { type Executor, onPostgres, readyAdapterOf } from "./client";
import { queryOnAdapter } from "./dialect";

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
  return (
    ex: Executor,
    key: string,
    values: Readonly<Record<string, unknown>>,
    build: (bind: Bind) => Compilable<O>,
  ): Promise<O[]> => {
    const shape = `${onPostgres(ex) ? "pg" : "sqlite"}:${key}`;
    let query = compiled.get(shape);
    if (!query) {
      query = build(toSlot).compile();
      if (compiled.size >= MAX_SHAPES) compiled.clear();
      compiled.set(shape, query);
    }
    const parameters = query.parameters.map((p) => (p instanceof Slot ? values[p.name] : p));
    const adapter = readyAdapterOf(ex);
    const run = adapter
      ? queryOnAdapter<O>(adapter, { ...query, parameters })
      : ex.executeQuery<O>({ ...query, parameters });
    return run.then((r) => r.rows);
  };
}

/** A `sql` template as a statement shapedQuery can compile (a template compiles against an executor). */
export function raw<O>(ex: Executor, query: RawBuilder<O>): Compilable<O> {
  return { compile: () => query.compile(ex) };
}
