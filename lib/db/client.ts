import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/client";
import { getEnv } from "../env";
import { isSqliteUrl, sqlitePathFromUrl } from "./sqlite-path";

export type Db = PrismaClient;

/** Picks the driver adapter from the URL. SQLite is the default; other providers arrive with their issue. */
export function createDb(url: string): Db {
  if (!isSqliteUrl(url)) {
    throw new Error(`DATABASE_URL ${url.split(":")[0]}: only SQLite (file:) is supported by this build`);
  }
  const file = sqlitePathFromUrl(url);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // timeout = SQLite busy timeout: other processes' write transactions wait instead of failing.
  const adapter = new PrismaBetterSQLite3({ url: `file:${file}`, timeout: 10_000 });
  return new PrismaClient({ adapter });
}

const globalForDb = globalThis as unknown as { plangateDb?: Db };

/** The app's one client (kept on globalThis so Next's dev reloads do not open a new one per edit). */
export function getDb(): Db {
  globalForDb.plangateDb ??= createDb(getEnv().DATABASE_URL);
  return globalForDb.plangateDb;
}
