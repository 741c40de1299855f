import "server-only";
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { Kysely, PostgresAdapter, type Transaction } from "kysely";
import { PrismaAdapterDialect } from "./dialect";
import { cacheStatements } from "./statement-cache";
import type { DB } from "./generated-kysely/types";
import { PrismaClient } from "./generated/client";
import { PrismaClient as PgPrismaClient } from "./generated-pg/client";
import { envValue, getEnv } from "../env";
import { isPostgresUrl, isSqliteUrl, sqlitePathFromUrl } from "./sqlite-path";
import { ensurePrivateFile } from "./private-files";

export type Db = PrismaClient;

// On globalThis because Next may load this module more than once (route and instrumentation bundles) while the
// client itself is shared through globalThis below.
const registry = globalThis as unknown as {
  plangateAdapters?: WeakMap<Db, Promise<SqlDriverAdapter>>;
  plangateProviders?: WeakMap<Db, string>;
  plangateUrls?: WeakMap<Db, string>;
  plangateKysely?: WeakMap<Db, Kysely<DB>>;
  plangatePgAdapters?: WeakSet<object>;
  plangateReadyAdapters?: WeakMap<object, SqlDriverAdapter>;
};
const adapters = (registry.plangateAdapters ??= new WeakMap());
const providers = (registry.plangateProviders ??= new WeakMap());
const urls = (registry.plangateUrls ??= new WeakMap());
const builders = (registry.plangateKysely ??= new WeakMap());
const pgAdapters = (registry.plangatePgAdapters ??= new WeakSet());
const readyAdapters = (registry.plangateReadyAdapters ??= new WeakMap());

/** Connections per process on PostgreSQL (PLANGATE_PG_POOL): instances × this must stay under max_connections. */
function poolSize(): number {
  // This variable alone: scripts (db:copy) connect without the rest of a server's environment.
  return envValue("PLANGATE_PG_POOL");
}

function adapterFactory(url: string): SqlDriverAdapterFactory {
  if (isPostgresUrl(url)) return new PrismaPg({ connectionString: url, max: poolSize() });
  if (!isSqliteUrl(url)) {
    throw new Error(`DATABASE_URL ${url.split(":")[0]}: use file:… (SQLite) or postgresql://… (PostgreSQL)`);
  }
  const file = sqlitePathFromUrl(url);
  // Made for the server's user only (whatever the umask): SQLite gives the journals the database file's mode.
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  ensurePrivateFile(file);
  // timeout = SQLite busy timeout: other processes' write transactions wait instead of failing.
  return new PrismaBetterSQLite3({ url: `file:${file}`, timeout: 10_000 });
}

/** One Prisma client per database URL; the driver adapter is picked from the URL and shared with the query builder (lib/db/dialect.ts). */
export function createDb(url: string): Db {
  const factory = adapterFactory(url);
  const connected = factory.connect().then((adapter) => {
    if (factory.provider === "sqlite") cacheStatements(adapter);
    return adapter;
  });
  // Prisma Client and the hand-written SQL share one connection (and so one transaction lock).
  const shared: SqlDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => connected,
  };
  // The PostgreSQL client is generated from the same models (prisma/postgres/schema.prisma): one API, two compilers.
  const db =
    factory.provider === "postgres"
      ? (new PgPrismaClient({ adapter: shared }) as unknown as Db)
      : new PrismaClient({ adapter: shared });
  adapters.set(db, connected);
  const builder = new Kysely<DB>({
    dialect: new PrismaAdapterDialect(factory.provider === "postgres" ? "postgres" : "sqlite", () => connected),
  });
  builders.set(db, builder);
  void connected.then((adapter) => readyAdapters.set(builder, adapter)).catch(() => {});
  // Transactions share their builder's adapter object: onPostgres recognises it whichever module copy asks.
  if (factory.provider === "postgres") pgAdapters.add(builder.getExecutor().adapter);
  providers.set(db, factory.provider);
  urls.set(db, url);
  return db;
}

/** "postgres" or "sqlite": for the few statements whose SQL differs (full-text search, change watching). */
export function providerOf(db: Db): "postgres" | "sqlite" {
  return providers.get(db) === "postgres" ? "postgres" : "sqlite";
}

/** The URL a client was created with (a PostgreSQL listener opens its own connection to it). */
export function urlOf(db: Db): string {
  const url = urls.get(db);
  if (url === undefined) throw new Error("This Prisma client was not created by createDb()");
  return url;
}

const globalForDb = globalThis as unknown as { plangateDb?: Db };

/** The app's one client (kept on globalThis so Next's dev reloads do not open a new one per edit). */
export function getDb(): Db {
  globalForDb.plangateDb ??= createDb(getEnv().DATABASE_URL);
  return globalForDb.plangateDb;
}

/** A write transaction of the data layer: lib/db modules take it to join their writes to the caller's. */
export type Trx = Transaction<DB>;
/** What a lib/db module runs a query on: the app's client or a transaction in progress. */
export type Conn = Db | Executor;
export type Executor = Kysely<DB>;

/** The typed query builder on a client's own adapter (lib/db modules only). */
export function kysely(conn: Conn): Executor {
  const k = builders.get(conn as Db);
  if (k) return k;
  // Next bundles this module (and Kysely) once per entry, so a transaction begun by another copy's builder is
  // no instance of this copy's Kysely class: recognised by its shape instead.
  if (conn instanceof Kysely || typeof (conn as Partial<Executor>).getExecutor === "function") return conn as Executor;
  throw new Error("This Prisma client was not created by createDb()");
}

/**
 * The connected adapter under a client's root builder; undefined inside a transaction (its statements must run on
 * the transaction's connection) and before the first connection.
 */
export function readyAdapterOf(ex: Executor): SqlDriverAdapter | undefined {
  return readyAdapters.get(ex);
}

/** True on PostgreSQL: for the few statements whose SQL differs by engine (full-text search, change watching). */
export function onPostgres(ex: Executor): boolean {
  const adapter = ex.getExecutor().adapter;
  return adapter instanceof PostgresAdapter || pgAdapters.has(adapter);
}

/** Runs fn in one write transaction; what it writes commits together or not at all. */
export function withTransaction<T>(conn: Conn, fn: (trx: Trx) => Promise<T>): Promise<T> {
  const k = kysely(conn);
  // A module called inside a transaction joins it rather than nesting one (Kysely has no nested transactions).
  if (k.isTransaction) return fn(k as Trx);
  return k.transaction().execute(fn);
}
