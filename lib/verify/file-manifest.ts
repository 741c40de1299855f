import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Change } from "./match-plan";

/*
 * A workspace without git still gets a baseline at approval, so that verification sees what a shell command
 * changed: a manifest of every file's path, size and modification time, plus a content hash for small files
 * (so a touched but unchanged file is not a change, and a small edit that kept size and time is). It holds no
 * file contents. Dependency and VCS folders are skipped, links are recorded as links and never followed, and
 * only regular files are read (opened without blocking, so a FIFO swapped in cannot stall the walk).
 */

/** size, mtime (ms), and the sha1 of the content for a small file (null otherwise, or for a link). */
export type ManifestEntry = [size: number, mtimeMs: number, hash: string | null];
export type Manifest = { files: Record<string, ManifestEntry>; truncated: boolean };

export const MANIFEST_LIMITS = { maxFiles: 20_000, hashBelow: 64 * 1024 };
const SKIP = new Set([".git", "node_modules", ".hg", ".svn", ".next", ".venv", "__pycache__"]);
const NONBLOCK = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (fs.constants.O_NOFOLLOW ?? 0);

async function hashSmall(file: string, hashBelow: number): Promise<string | null> {
  const handle = await fs.promises.open(file, NONBLOCK).catch(() => null);
  if (!handle) return null;
  try {
    const st = await handle.stat();
    if (!st.isFile() || st.size >= hashBelow) return null;
    return createHash("sha1")
      .update(await handle.readFile())
      .digest("hex");
  } finally {
    await handle.close();
  }
}

/** The workspace's manifest: at most `maxFiles` entries (then `truncated`), paths relative with "/". */
export async function takeManifest(workspace: string, limits = MANIFEST_LIMITS): Promise<Manifest> {
  const files: Record<string, ManifestEntry> = {};
  let count = 0;
  let truncated = false;
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (truncated) return;
      const abs = path.join(dir, e.name);
      const name = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIP.has(e.name)) await walk(abs, name);
        continue;
      }
      if (!e.isFile() && !e.isSymbolicLink()) continue;
      if (count >= limits.maxFiles) {
        truncated = true;
        return;
      }
      const st = await fs.promises.lstat(abs).catch(() => null);
      if (!st) continue;
      const hash = st.isFile() ? await hashSmall(abs, limits.hashBelow) : null;
      files[name] = [st.size, Math.floor(st.mtimeMs), hash];
      count++;
    }
  };
  await walk(workspace, "");
  return { files, truncated };
}

function changed(a: ManifestEntry, b: ManifestEntry): boolean {
  if (a[0] !== b[0]) return true;
  if (a[2] !== null && b[2] !== null) return a[2] !== b[2];
  return a[1] !== b[1];
}

/** Pure: what changed between two manifests, per file (no patch: a manifest holds no contents). */
export function diffManifests(before: Manifest, after: Manifest): Omit<Change, "via">[] {
  const out: Omit<Change, "via">[] = [];
  for (const [p, entry] of Object.entries(after.files)) {
    const was = before.files[p];
    if (!was) out.push({ path: p, status: "added", patch: "" });
    else if (changed(was, entry)) out.push({ path: p, status: "modified", patch: "" });
  }
  // A file past the cap of either walk is not known to be gone.
  if (!before.truncated && !after.truncated)
    for (const p of Object.keys(before.files)) if (!after.files[p]) out.push({ path: p, status: "deleted", patch: "" });
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** A stored manifest read back; anything that is not one (a damaged row) is null, never trusted as "no files". */
export function parseManifest(text: string | null): Manifest | null {
  if (!text) return null;
  try {
    const m = JSON.parse(text) as Partial<Manifest>;
    return m && typeof m.files === "object" && m.files !== null && typeof m.truncated === "boolean"
      ? (m as Manifest)
      : null;
  } catch {
    return null;
  }
}
