import fs from "node:fs";
import path from "node:path";
import { isSqliteUrl, sqlitePathFromUrl } from "../db/sqlite-path";
import type { HiddenPath } from "./bwrap-args";

export type ServerPlaces = {
  /** Plangate's data folder (its database, other workspaces, quarantined files). */
  dataDir: string;
  /** DATABASE_URL, for the SQLite file and its journals. */
  databaseUrl: string;
  /** The server's own checkout (process.cwd()), whose `.env*` files hold its settings and keys. */
  checkout: string;
};

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function real(p: string): string | null {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }) === undefined ? null : fs.realpathSync(p);
  } catch {
    return null;
  }
}

/**
 * The server's own files that a command must never see, trusted config or not, as far as something shown makes
 * them visible (a system folder such as /opt holding the checkout, a folder a trusted config shows, the
 * workspace itself): the database file and its journals, the checkout's `.env*` files, and the data folder
 * except the workspace. Only the paths that exist now, resolved: a link is hidden where it leads.
 */
export function hiddenServerFiles(places: ServerPlaces, workspace: string, shown: readonly string[]): HiddenPath[] {
  const visible = (p: string) => shown.some((root) => inside(root, p));
  const out: HiddenPath[] = [];
  const add = (p: string, dir: boolean) => {
    const r = real(p);
    if (r === null || !visible(r) || out.some((h) => h.path === r)) return;
    if (
      !dir &&
      (!fs.statSync(/*turbopackIgnore: true*/ r).isFile() ||
        out.some((h) => h.dir && inside(h.path, r) && !inside(workspace, r)))
    )
      return;
    // The workspace is shown, whatever holds it: a folder holding it is hidden first and the workspace bound into it.
    if (dir && r === workspace) return;
    out.push({ path: r, dir, beforeWorkspace: dir && inside(r, workspace) });
  };
  add(places.dataDir, true);
  if (isSqliteUrl(places.databaseUrl)) {
    const db = sqlitePathFromUrl(places.databaseUrl);
    for (const suffix of ["", "-wal", "-shm", "-journal"]) add(`${db}${suffix}`, false);
  }
  let names: string[] = [];
  try {
    names = fs.readdirSync(places.checkout);
  } catch {
    names = [];
  }
  for (const name of names) if (name.startsWith(".env")) add(path.join(places.checkout, name), false);
  return out;
}
