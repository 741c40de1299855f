import "server-only";

/**
 * SQLite's prepared statements, kept per SQL text. Prisma's better-sqlite3 adapter prepares every statement it
 * runs afresh (parse and plan, ~30 µs for a listing's statement: a fifth of a search over 1k sessions), although
 * every statement we send is one of a few hundred texts with its values bound apart. The adapter calls
 * `client.prepare(sql).bind(args)` and then reads `reader`, `columns()`, `raw().all()` or `run()`; better-sqlite3
 * binds a statement only once, so the cache hands out a view that passes each call's values instead.
 */
type Statement = {
  readonly reader: boolean;
  columns(): unknown[];
  raw(on: boolean): { all(args: unknown[]): unknown[] };
  run(args: unknown[]): unknown;
};
type Client = { prepare(sql: string, ...rest: unknown[]): unknown };

// The statements of a process are a few hundred texts (a listing has one per shape, an id list one per length).
const MAX_STATEMENTS = 1000;

type View = {
  reader: boolean;
  columns(): unknown[];
  raw(): { all(): unknown[] };
  run(): unknown;
  bind(a: unknown[]): View;
};

// A statement's columns are fixed once it is prepared (the schema is migrated before the server serves), and
// better-sqlite3 builds their descriptions anew on every columns() call, which the adapter makes per execution.
const columnsOf = new WeakMap<Statement, unknown[]>();
function columns(statement: Statement): unknown[] {
  let known = columnsOf.get(statement);
  if (!known) {
    known = statement.columns();
    columnsOf.set(statement, known);
  }
  return known;
}

// `prepare("BEGIN").run()` binds nothing; `prepare(sql).bind(args)` binds once: both are served by one view.
function boundView(statement: Statement, args: unknown[] = []): View {
  return {
    reader: statement.reader,
    columns: () => columns(statement),
    raw: () => ({ all: () => statement.raw(true).all(args) }),
    run: () => statement.run(args),
    bind: (values: unknown[]) => boundView(statement, values),
  };
}

function isClient(value: unknown): value is Client {
  return typeof value === "object" && value !== null && typeof (value as Client).prepare === "function";
}

/**
 * Makes the adapter's connection reuse prepared statements. Returns false (and changes nothing) when the adapter
 * is not the shape this was written against, so a Prisma upgrade costs speed, never correctness.
 */
export function cacheStatements(adapter: unknown): boolean {
  const client = (adapter as { client?: unknown } | null)?.client;
  if (!isClient(client) || typeof (client as { exec?: unknown }).exec !== "function") return false;
  const prepare = client.prepare.bind(client) as (sql: string, ...rest: unknown[]) => Statement;
  const cache = new Map<string, Statement>();
  client.prepare = (sql: string, ...rest: unknown[]) => {
    if (rest.length > 0) return prepare(sql, ...rest);
    let statement = cache.get(sql);
    if (!statement) {
      statement = prepare(sql);
      if (cache.size >= MAX_STATEMENTS) cache.delete(cache.keys().next().value as string);
      cache.set(sql, statement);
    }
    return boundView(statement);
  };
  return true;
}

type RawClient = {
  inTransaction?: boolean;
  prepare(sql: string): {
    bind(args: unknown[]): { columns(): { name: string }[]; raw(on: boolean): { all(): unknown[][] } };
  };
};

/**
 * SQLite: runs a read at once, synchronously, when no transaction is open on the shared connection; undefined when
 * one is (or this is not better-sqlite3). Nothing can begin between the check and the read, so the rows are
 * committed ones, without taking the transaction lock. Values come as SQLite stores them (a date as text or a
 * number), integers as numbers.
 */
export function readIfNoTransaction(
  adapter: unknown,
  sql: string,
  args: unknown[],
): Record<string, unknown>[] | undefined {
  const client = (adapter as { client?: RawClient } | null)?.client;
  if (!client || client.inTransaction !== false || typeof client.prepare !== "function") return undefined;
  const statement = client.prepare(sql).bind(args);
  const names = statement.columns().map((c) => c.name);
  return statement
    .raw(true)
    .all()
    .map((values) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) {
        const value = values[i];
        // The adapter reads integers as BigInt (safe integers on); every integer the app stores fits a number.
        row[names[i] as string] = typeof value === "bigint" ? Number(value) : value;
      }
      return row;
    });
}
