import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { isSqliteUrl, sqlitePathFromUrl } from "./sqlite-path";

const root = path.resolve(import.meta.dirname, "..", "..");

/** Applies the committed migrations (prisma migrate deploy, wasm schema engine) to the database at url. */
export function migrateDatabase(url: string, opts: { quiet?: boolean } = {}): void {
  if (isSqliteUrl(url)) fs.mkdirSync(path.dirname(sqlitePathFromUrl(url)), { recursive: true });
  const prismaBin = path.join(root, "node_modules", "prisma", "build", "index.js");
  execFileSync(process.execPath, [prismaBin, "migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: isSqliteUrl(url) ? `file:${sqlitePathFromUrl(url)}` : url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    stdio: opts.quiet ? "pipe" : "inherit",
  });
  if (isSqliteUrl(url)) {
    const sqlite = new Database(sqlitePathFromUrl(url));
    // WAL persists in the file: readers never block the writer, and a committed append survives kill -9.
    sqlite.pragma("journal_mode = WAL");
    sqlite.close();
  }
}
