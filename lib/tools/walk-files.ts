import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/** Folders that are generated or vendored: walking them drowns real results and costs seconds. */
export const IGNORED_DIRS: ReadonlySet<string> = new Set([
  "node_modules",
  ".git",
  ".next",
  "dist",
  "build",
  "__pycache__",
]);

export type WalkEntry = {
  /** POSIX path relative to the walked folder. */
  relative: string;
  absolute: string;
  kind: "file" | "dir" | "symlink" | "other";
  depth: number;
  /** Set on a folder whose contents could not be read (EACCES…). */
  error?: string;
};

function kindOf(d: Dirent): WalkEntry["kind"] {
  if (d.isDirectory()) return "dir";
  if (d.isFile()) return "file";
  if (d.isSymbolicLink()) return "symlink";
  return "other";
}

// Folders first, then by code unit: stable across locales, so outputs are reproducible.
function compareEntries(a: Dirent, b: Dirent): number {
  const ad = a.isDirectory() ? 0 : 1;
  const bd = b.isDirectory() ? 0 : 1;
  if (ad !== bd) return ad - bd;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Depth-first, sorted walk. Symlinks are reported but never followed: following
 * them could leave the workspace (and the permission that was granted for it)
 * or loop forever.
 */
export async function* walkTree(base: string, signal?: AbortSignal): AsyncGenerator<WalkEntry> {
  yield* walkDir(base, "", 0, signal);
}

async function* walkDir(dir: string, prefix: string, depth: number, signal?: AbortSignal): AsyncGenerator<WalkEntry> {
  signal?.throwIfAborted();
  const entries = await fs.readdir(dir, { withFileTypes: true });
  entries.sort(compareEntries);
  for (const d of entries) {
    const kind = kindOf(d);
    if (kind === "dir" && IGNORED_DIRS.has(d.name)) continue;
    const relative = prefix === "" ? d.name : `${prefix}/${d.name}`;
    const absolute = path.join(dir, d.name);
    if (kind !== "dir") {
      yield { relative, absolute, kind, depth };
      continue;
    }
    let children: AsyncGenerator<WalkEntry> | null = null;
    let error: string | undefined;
    try {
      // Probe readability before yielding, so the folder's own entry can carry the error.
      await fs.access(absolute, fs.constants.R_OK | fs.constants.X_OK);
      children = walkDir(absolute, relative, depth + 1, signal);
    } catch (err) {
      error = (err as NodeJS.ErrnoException).code ?? "unreadable";
    }
    yield error === undefined ? { relative, absolute, kind, depth } : { relative, absolute, kind, depth, error };
    if (children) {
      try {
        yield* children;
      } catch (err) {
        // A folder that vanished mid-walk is not worth failing the whole search for.
        if (signal?.aborted === true || typeof (err as NodeJS.ErrnoException).code !== "string") throw err;
      }
    }
  }
}

/** A NUL byte in the first 8 KB: the same heuristic git and grep use for "binary". */
export function looksBinary(head: Uint8Array): boolean {
  const end = Math.min(head.length, 8192);
  for (let i = 0; i < end; i++) if (head[i] === 0) return true;
  return false;
}
