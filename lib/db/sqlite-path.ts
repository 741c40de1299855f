import path from "node:path";

/** "file:./data/x.db" → absolute path; the adapter resolves relative paths against cwd otherwise. */
export function sqlitePathFromUrl(url: string, cwd = process.cwd()): string {
  const raw = url.replace(/^file:/, "").split("?")[0] ?? "";
  return path.isAbsolute(raw) ? raw : path.resolve(cwd, raw);
}

export function isSqliteUrl(url: string): boolean {
  return url.startsWith("file:");
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}
