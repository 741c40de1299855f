import {
  ColumnTypeEnum,
  type ArgType,
  type ColumnType,
  type SqlDriverAdapter,
  type SqlQueryable,
  type Transaction,
} from "@prisma/driver-adapter-utils";

/**
 * Hand-written SQL on the Prisma driver adapter that Prisma Client itself uses (same connection, same
 * transaction lock). Prisma 6's query compiler compiles every ORM call afresh (~0.5 ms each here), so the
 * hottest paths (event appends, state reads) talk to the adapter directly. SQL here must be portable:
 * double-quoted identifiers and `?` placeholders (rewritten to $n for PostgreSQL).
 */
export type SqlArg = string | number | boolean | Date | null;
export type Row = Record<string, unknown>;

export interface SqlRunner {
  /** The few statements whose SQL differs by database (full-text search, change notification) branch on this. */
  readonly provider: "postgres" | "sqlite";
  execute(sql: string, args?: SqlArg[]): Promise<number>;
  query<T extends Row = Row>(sql: string, args?: SqlArg[]): Promise<T[]>;
}

function argType(value: SqlArg): ArgType {
  if (value instanceof Date) return { scalarType: "datetime", arity: "scalar" };
  if (typeof value === "number") return { scalarType: Number.isInteger(value) ? "int" : "float", arity: "scalar" };
  if (typeof value === "boolean") return { scalarType: "boolean", arity: "scalar" };
  if (typeof value === "string") return { scalarType: "string", arity: "scalar" };
  return { scalarType: "unknown", arity: "scalar" };
}

// Adapters hand 64-bit integers over as strings (to keep precision); our integers are small counters.
function fromDriver(value: unknown, type: ColumnType | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (type === ColumnTypeEnum.Int32 || type === ColumnTypeEnum.Int64) return Number(value);
  if (type === ColumnTypeEnum.Boolean) return value === true || value === 1 || value === "1" || value === "true";
  return typeof value === "bigint" ? Number(value) : value;
}

function toDialect(sql: string, provider: string): string {
  if (provider !== "postgres") return sql;
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export function runner(q: SqlQueryable): SqlRunner {
  const build = (sql: string, args: SqlArg[]) => ({
    sql: toDialect(sql, q.provider),
    args,
    argTypes: args.map(argType),
  });
  return {
    provider: q.provider === "postgres" ? "postgres" : "sqlite",
    execute: (sql, args = []) => q.executeRaw(build(sql, args)),
    async query<T extends Row>(sql: string, args: SqlArg[] = []) {
      const result = await q.queryRaw(build(sql, args));
      return result.rows.map((values) => {
        const row: Row = {};
        result.columnNames.forEach((name, i) => {
          row[name] = fromDriver(values[i], result.columnTypes[i]);
        });
        return row as T;
      });
    },
  };
}

async function finish(tx: Transaction, ok: boolean): Promise<void> {
  // Adapters that do not send COMMIT/ROLLBACK themselves expect the caller to (as Prisma's engine does).
  if (!tx.options.usePhantomQuery) await tx.executeRaw({ sql: ok ? "COMMIT" : "ROLLBACK", args: [], argTypes: [] });
  await (ok ? tx.commit() : tx.rollback());
}

export async function inTransaction<T>(adapter: SqlDriverAdapter, fn: (run: SqlRunner) => Promise<T>): Promise<T> {
  const tx = await adapter.startTransaction();
  let result: T;
  try {
    result = await fn(runner(tx));
  } catch (error) {
    await finish(tx, false).catch(() => undefined);
    throw error;
  }
  await finish(tx, true);
  return result;
}

type RawCapable = {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
};

/** The same SqlRunner over a Prisma interactive transaction, for writes that must join one. */
export function prismaRunner(tx: RawCapable, provider: string): SqlRunner {
  return {
    provider: provider === "postgres" ? "postgres" : "sqlite",
    execute: (sql, args = []) => tx.$executeRawUnsafe(toDialect(sql, provider), ...args),
    async query<T extends Row>(sql: string, args: SqlArg[] = []) {
      const rows = await tx.$queryRawUnsafe<Row[]>(toDialect(sql, provider), ...args);
      return rows.map(
        (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])) as T,
      );
    },
  };
}
