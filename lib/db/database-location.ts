import fs from "node:fs";
import path from "node:path";
import type { Env } from "../env";
import { isSqliteUrl, sqlitePathFromUrl } from "./sqlite-path";

/** Where the database is, in words for the start log: a file's absolute path, or a server URL without its password. */
export function databaseWhere(url: string, cwd = process.cwd()): string {
  return isSqliteUrl(url) ? sqlitePathFromUrl(url, cwd) : url.replace(/\/\/[^@/]*@/, "//");
}

/**
 * An older install's database that this start will not use: ./data/plangate.db (the place before the database
 * followed PLANGATE_DATA_DIR) when the data folder is set outside ./data and holds no database yet. The new place wins
 * (it is what the operator asked for); the old file is left untouched and the start log says how to move it.
 */
export function strandedDatabase(env: Pick<Env, "DATABASE_URL" | "databaseUrlSet">, cwd: string): string | null {
  if (env.databaseUrlSet || !isSqliteUrl(env.DATABASE_URL)) return null;
  const old = path.resolve(cwd, "data", "plangate.db");
  const used = sqlitePathFromUrl(env.DATABASE_URL, cwd);
  // A folder inside ./data (./data/e2e) is a second install beside the first, not the first one moved.
  if (used.startsWith(path.join(path.dirname(old), path.sep))) return null;
  return fs.existsSync(old) && !fs.existsSync(used) ? old : null;
}
