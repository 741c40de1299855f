import "server-only";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import {
  type ArgType,
  type ColumnType,
  ColumnTypeEnum,
  type SqlDriverAdapter,
  type SqlQueryable,
  type Transaction,
} from "@prisma/driver-adapter-utils";

/**
 * Kysely on the Prisma driver adapter that Prisma Client already holds: one pool (one SQLite connection and its
 * transaction lock), and no Prisma query compiler per call. Rows are made engine-neutral here: SQLite's text
 * dates become Date and its 0/1 booleans boolean, as PostgreSQL gives them, so a row typed from the schema is
 * what arrives on both.
 */
export type Provider = "postgres" | "sqlite";

function argType(value: unknown): ArgType {
  if (value instanceof Date) return { scalarType: "datetime", arity: "scalar" };
  if (typeof value === "number") return { scalarType: Number.isInteger(value) ? "int" : "float", arity: "scalar" };
  if (typeof value === "boolean") return { scalarType: "boolean", arity: "scalar" };
  if (typeof value === "string") return { scalarType: "string", arity: "scalar" };
  return { scalarType: "unknown", arity: "scalar" };
}

// Adapters hand 64-bit integers over as strings (to keep precision) and dates as text; ours are small counters.
function fromDriver(value: unknown, type: ColumnType | undefined): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case ColumnTypeEnum.Int32:
    case ColumnTypeEnum.Int64:
      return Number(value);
    case ColumnTypeEnum.Boolean:
      return value === true || value === 1 || value === "1" || value === "true";
    case ColumnTypeEnum.DateTime:
    case ColumnTypeEnum.Date:
      return value instanceof Date ? value : new Date(typeof value === "number" ? value : String(value));
    default:
      return typeof value === "bigint" ? Number(value) : value;
  }
}

// A statement that returns rows goes through queryRaw; one that only changes rows through executeRaw (SQLite's
// driver refuses to read rows from a statement that has none).
function returnsRows(query: CompiledQuery): boolean {
  const node = query.query as { kind: string; returning?: unknown };
  if (node.kind === "SelectQueryNode") return true;
  if (node.kind === "RawNode") return /^\s*(select|with|pragma|values)\b|\breturning\b/i.test(query.sql);
  return node.returning !== undefined;
}

class AdapterConnection implements DatabaseConnection {
  tx: Transaction | null = null;
  constructor(readonly adapter: SqlDriverAdapter) {}

  private get queryable(): SqlQueryable {
    return this.tx ?? this.adapter;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const args = query.parameters as unknown[];
    const request = { sql: query.sql, args, argTypes: args.map(argType) };
    if (!returnsRows(query)) {
      const changed = await this.queryable.executeRaw(request);
      return { rows: [], numAffectedRows: BigInt(changed) };
    }
    const result = await this.queryable.queryRaw(request);
    const names = result.columnNames;
    const types = result.columnTypes;
    const rows = result.rows.map((values) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) row[names[i] as string] = fromDriver(values[i], types[i]);
      return row as R;
    });
    return { rows, numAffectedRows: result.rows.length > 0 ? undefined : BigInt(0) };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered by the adapter, and nothing here uses it.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming queries are not supported on the Prisma driver adapter");
  }
}

/**
 * One compiled statement straight on the adapter, outside a transaction: what Kysely's executor does for the root
 * builder (a fresh connection view on the shared adapter), without its connection provider's and result
 * transformer's promise chain, which costs more than the query itself inside Next (every promise pays the
 * request's async context). For the statements every request runs (lib/db/shaped-query.ts).
 */
export function queryOnAdapter<R>(adapter: SqlDriverAdapter, query: CompiledQuery): Promise<QueryResult<R>> {
  return new AdapterConnection(adapter).executeQuery<R>(query);
}

class AdapterDriver implements Driver {
  private adapter: SqlDriverAdapter | null = null;
  constructor(private readonly connect: () => Promise<SqlDriverAdapter>) {}

  async init(): Promise<void> {
    this.adapter = await this.connect();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.adapter) this.adapter = await this.connect();
    return new AdapterConnection(this.adapter);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as AdapterConnection;
    c.tx = await c.adapter.startTransaction();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await finish(connection as AdapterConnection, true);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await finish(connection as AdapterConnection, false);
  }

  async releaseConnection(): Promise<void> {}

  // The adapter belongs to the Prisma client, which disposes of it.
  async destroy(): Promise<void> {}
}

/**
 * Ends the transaction and always hands its connection back: the adapter holds a lock (SQLite's one connection)
 * or a pooled client until commit() or rollback() is called, and Kysely's rollback after a failed commit finds
 * nothing left to end. A COMMIT that fails (a deferred constraint, SQLITE_BUSY, a lost connection) leaves the
 * transaction open on SQLite, so it is rolled back before the error goes on.
 */
async function finish(c: AdapterConnection, ok: boolean): Promise<void> {
  const tx = c.tx;
  if (!tx) return;
  c.tx = null;
  const send = (sql: string) => tx.executeRaw({ sql, args: [], argTypes: [] });
  // Adapters that do not send COMMIT/ROLLBACK themselves expect the caller to, as Prisma's engine does.
  const explicit = !tx.options.usePhantomQuery;
  try {
    if (explicit) await send(ok ? "COMMIT" : "ROLLBACK");
  } catch (error) {
    // The engine may have ended the transaction itself; a second error here says nothing new.
    if (explicit && ok) await send("ROLLBACK").catch(() => undefined);
    await tx.rollback().catch(() => undefined);
    throw error;
  }
  await (ok ? tx.commit() : tx.rollback());
}

export class PrismaAdapterDialect implements Dialect {
  constructor(
    private readonly provider: Provider,
    private readonly connect: () => Promise<SqlDriverAdapter>,
  ) {}

  createDriver(): Driver {
    return new AdapterDriver(this.connect);
  }

  createQueryCompiler(): QueryCompiler {
    return this.provider === "postgres" ? new PostgresQueryCompiler() : new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return this.provider === "postgres" ? new PostgresAdapter() : new SqliteAdapter();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own dialects take the untyped instance here.
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.provider === "postgres" ? new PostgresIntrospector(db) : new SqliteIntrospector(db);
  }
}
