import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient } from "./generated/client";
import { getEnv } from "../env";
import { isSqliteUrl, sqlitePathFromUrl } from "./sqlite-path";
import { inTransaction, prismaRunner, runner, type SqlRunner } from "./sql";
import type { Prisma } from "./generated/client";

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

// On globalThis because Next may load this module more than once (route and instrumentation bundles) while the
// client itself is shared through globalThis below.
const registry = globalThis as unknown as { plangateAdapters?: WeakMap<Db, Promise<SqlDriverAdapter>>; plangateProviders?: WeakMap<Db, string> };
const adapters = (registry.plangateAdapters ??= new WeakMap());
const providers = (registry.plangateProviders ??= new WeakMap());

function adapterFactory(url: string): SqlDriverAdapterFactory {
  if (!isSqliteUrl(url)) {
    throw new Error(`DATABASE_URL ${url.split(":")[0]}: only SQLite (file:) is supported by this build`);
  }
  const file = sqlitePathFromUrl(url);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // timeout = SQLite busy timeout: other processes' write transactions wait instead of failing.
  return new PrismaBetterSQLite3({ url: `file:${file}`, timeout: 10_000 });
}

/** One Prisma client per database URL; the driver adapter is picked from the URL and shared with lib/db/sql. */
export function createDb(url: string): Db {
  const factory = adapterFactory(url);
  const connected = factory.connect();
  // Prisma Client and the hand-written SQL share one connection (and so one transaction lock).
  const shared: SqlDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => connected,
  };
  const db = new PrismaClient({ adapter: shared });
  adapters.set(db, connected);
  providers.set(db, factory.provider);
  return db;
}

function adapterOf(db: Db): Promise<SqlDriverAdapter> {
  const adapter = adapters.get(db);
  if (!adapter) throw new Error("This Prisma client was not created by createDb()");
  return adapter;
}

export async function sql(db: Db): Promise<SqlRunner> {
  return runner(await adapterOf(db));
}

export async function sqlTransaction<T>(db: Db, fn: (run: SqlRunner) => Promise<T>): Promise<T> {
  return inTransaction(await adapterOf(db), fn);
}

/** A Prisma interactive transaction, with a SqlRunner on the same transaction for the hand-written SQL. */
export function ormTransaction<T>(db: Db, fn: (tx: Tx, run: SqlRunner) => Promise<T>): Promise<T> {
  const provider = providers.get(db) ?? "sqlite";
  return db.$transaction((tx) => fn(tx, prismaRunner(tx, provider)));
}

const globalForDb = globalThis as unknown as { plangateDb?: Db };

/** The app's one client (kept on globalThis so Next's dev reloads do not open a new one per edit). */
export function getDb(): Db {
  globalForDb.plangateDb ??= createDb(getEnv().DATABASE_URL);
  return globalForDb.plangateDb;
}
