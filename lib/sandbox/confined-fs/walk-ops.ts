import fs from "node:fs";
import path from "node:path";
import { at, type Beneath, WorkerError } from "./beneath";
import type { ListResult, WalkEntry } from "./protocol";
import { kindOf } from "./read-ops";

/** Folders that are generated or vendored: walking them drowns real results and costs seconds. */
export const IGNORED_DIRS: ReadonlySet<string> = new Set([
  "node_modules",
  ".git",
  ".next",
  "dist",
  "build",
  "__pycache__",
]);

const DIR_FLAGS = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;

/** Keeps a runaway walk (a tree of millions of files) bounded in the worker's memory. */
const MAX_WALKED = 200_000;

export type Visit = (entry: WalkEntry, dirFd: number, name: string) => boolean | undefined;

// Folders first, then by code unit: stable across locales, so outputs are reproducible.
function compare(a: fs.Dirent, b: fs.Dirent): number {
  const ad = a.isDirectory() ? 0 : 1;
  const bd = b.isDirectory() ? 0 : 1;
  if (ad !== bd) return ad - bd;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Depth-first, sorted walk through descriptors: every folder is opened beneath its parent without following a
 * link, so a folder swapped for a link mid-walk is skipped, never entered. `visit` returns true to stop.
 */
export function walk(b: Beneath, base: string, visit: Visit): void {
  const fd = b.openDir(b.place(base, false));
  const budget = { left: MAX_WALKED };
  try {
    walkDir(b, fd, base, "", 0, visit, budget);
  } finally {
    b.release(fd);
  }
}

function walkDir(
  b: Beneath,
  fd: number,
  absolute: string,
  prefix: string,
  depth: number,
  visit: Visit,
  budget: { left: number },
): boolean {
  const entries = fs.readdirSync(at(fd, "."), { withFileTypes: true }).sort(compare);
  for (const d of entries) {
    if (--budget.left < 0) return true;
    const kind = kindOf(d);
    const childAbsolute = path.join(absolute, d.name);
    if ((kind === "dir" && IGNORED_DIRS.has(d.name)) || b.isHidden(childAbsolute)) continue;
    const relative = prefix === "" ? d.name : `${prefix}/${d.name}`;
    if (kind !== "dir") {
      if (visit({ relative, kind, depth }, fd, d.name) === true) return true;
      continue;
    }
    let child: number | null = null;
    let error: string | undefined;
    try {
      child = fs.openSync(at(fd, d.name), DIR_FLAGS);
    } catch (err) {
      error = (err as NodeJS.ErrnoException).code ?? "unreadable";
    }
    const entry: WalkEntry = error === undefined ? { relative, kind, depth } : { relative, kind, depth, error };
    try {
      if (visit(entry, fd, d.name) === true) return true;
      if (child !== null && walkDir(b, child, childAbsolute, relative, depth + 1, visit, budget)) return true;
    } catch (err) {
      // A folder that vanished mid-walk is not worth failing the whole search for.
      if (typeof (err as NodeJS.ErrnoException).code !== "string" || err instanceof WorkerError) throw err;
    } finally {
      if (child !== null) fs.closeSync(child);
    }
  }
  return false;
}

export function listTree(b: Beneath, base: string, max: number): ListResult {
  const entries: WalkEntry[] = [];
  let cut = false;
  walk(b, base, (entry) => {
    if (entries.length === max) {
      cut = true;
      return true;
    }
    entries.push(entry);
    return false;
  });
  return { entries, cut };
}
