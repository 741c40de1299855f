import "server-only";
import { CompiledQuery } from "kysely";
import { type Db, type Executor, kysely, providerOf, withTransaction } from "./client";

/**
 * SQL text on the Kysely executor, for what is generic over tables (the database copy walks every table and
 * column) and for test fixtures. The app's queries are typed, in their lib/db modules. `?` placeholders become $n
 * on PostgreSQL.
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

export async function sql(db: Db): Promise<SqlRunner> {
  return legacyRunner(kysely(db), providerOf(db));
}

export function sqlTransaction<T>(db: Db, fn: (run: SqlRunner) => Promise<T>): Promise<T> {
  return withTransaction(db, (trx) => fn(legacyRunner(trx, providerOf(db))));
}
