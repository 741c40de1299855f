import "server-only";
import type { Compilable, CompiledQuery, QueryResult } from "kysely";
import { type Executor, onPostgres } from "../client";

/** Where a statement compiled once takes a value of each execution: column `key` of row `row`. */
class Slot {
  constructor(
    readonly row: number,
    readonly key: string,
  ) {}
}

/** A slot, typed as the value it stands for (so the builder still checks it against its column). */
export type Slots<R> = <K extends keyof R & string>(key: K, row?: number) => R[K];

const slots = <R>(): Slots<R> => {
  return <K extends keyof R & string>(key: K, row = 0) => new Slot(row, key) as unknown as R[K];
};

/**
 * A statement of a fixed shape for a given number of rows, built and compiled by Kysely once per engine and row
 * count, then run with each call's values bound in place of its slots. The append path runs a handful of these
 * per event batch, and building and compiling them afresh each time costs as much CPU as executing them does on
 * SQLite. `build` must not depend on anything but the engine and `rows` (the values are slots, not known yet).
 */
export function fixedShape<R, O>(build: (ex: Executor, slot: Slots<R>, rows: number) => Compilable<O>) {
  const compiled = new Map<string, CompiledQuery<O>>();
  const slot = slots<R>();
  return (ex: Executor, rows: readonly R[]): Promise<QueryResult<O>> => {
    const key = `${onPostgres(ex) ? "pg" : "sqlite"}:${rows.length}`;
    let query = compiled.get(key);
    if (!query) {
      query = build(ex, slot, rows.length).compile();
      compiled.set(key, query);
    }
    const parameters = query.parameters.map((p) =>
      p instanceof Slot ? (rows[p.row] as Record<string, unknown>)[p.key] : p,
    );
    return ex.executeQuery<O>({ ...query, parameters });
  };
}
