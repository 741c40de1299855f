import "server-only";
import { CompiledQuery } from "kysely";
import type { Executor } from "./client";

/**
 * TRANSITIONAL: hand-written SQL text on the Kysely executor, for call sites not yet moved to typed queries in
 * their lib/db module. `?` placeholders are rewritten to $n on PostgreSQL. Goes away with the last caller.
 */
export type SqlArg = string | number | boolean | Date | null;
export type Row = Record<string, unknown>;

export interface SqlRunner {
  readonly provider: "postgres" | "sqlite";
  /** The executor this runner is on (a transaction inside sqlTransaction): typed lib/db modules take it. */
  readonly conn: Executor;
  execute(sql: string, args?: SqlArg[]): Promise<number>;
  query<T extends Row = Row>(sql: string, args?: SqlArg[]): Promise<T[]>;
}

function toDialect(sql: string, provider: string): string {
  if (provider !== "postgres") return sql;
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export function legacyRunner(conn: Executor, provider: "postgres" | "sqlite"): SqlRunner {
  return {
    provider,
    conn,
    async execute(sql, args = []) {
      const r = await conn.executeQuery(CompiledQuery.raw(toDialect(sql, provider), args));
      return Number(r.numAffectedRows ?? 0);
    },
    async query<T extends Row>(sql: string, args: SqlArg[] = []) {
      return (await conn.executeQuery<T>(CompiledQuery.raw(toDialect(sql, provider), args))).rows;
    },
  };
}
