import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Change } from "./match-plan";

/*
 * A workspace without git still gets a baseline at approval, so that verification sees what a shell command
 * changed: a manifest of every file's path, size and modification time, plus a content hash for small files
 * (so a touched but unchanged file is not a change, and a small edit that kept size and time is). It holds no
 * file contents. Dependency and VCS folders are skipped, and Plangate's own (`.plangate/plans`, where every
 * session's plan file stays, and a data folder inside the workspace): what an approval costs then follows the
 * change, not the workspace's history. The rest of `.plangate` (its config, its reviewers) is work like any other. Links are recorded as links and never followed, and
 * only regular files are read (opened without blocking, so a FIFO swapped in cannot stall the walk).
 *
 * With an earlier manifest of the same workspace at hand, a small file whose inode, size, modification and change
 * times are as they were keeps its hash without being read (one lstat), so a second manifest costs what changed,
 * not the workspace's size. The change time (ctime) is the kernel's: writing the file or putting an old
 * modification time back (`touch -d`) sets it to now, and nothing short of root and the clock sets it back, so an
 * agent's command cannot hide a same-size edit. As git guards against "racy clean" entries, times not strictly
 * older than when the earlier walk started are not trusted (an edit within the tick of the read): read again.
 */

/**
 * size, mtime (ms), and the sha1 of the content for a small file (null otherwise, or for a link); a regular file's
 * ctime (ms) and inode, which say whether the hash may be reused (absent in manifests stored before reuse).
 */
export type ManifestEntry =
  | [size: number, mtimeMs: number, hash: string | null]
  | [size: number, mtimeMs: number, hash: string | null, ctimeMs: number, ino: number];
/** `takenAt`: when the walk started (ms, see takenAtOf); absent in manifests stored before reuse, which reuse nothing. */
export type Manifest = { files: Record<string, ManifestEntry>; truncated: boolean; takenAt?: number };

export const MANIFEST_LIMITS = { maxFiles: 20_000, hashBelow: 64 * 1024 };
const SKIP = new Set([".git", "node_modules", ".hg", ".svn", ".next", ".venv", "__pycache__"]);
const NONBLOCK = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (fs.constants.O_NOFOLLOW ?? 0);

/**
 * When a walk starting now counts as taken: a second before, floored to the second. Files' times come from the
 * kernel's coarse clock (a tick behind Date.now()) and some filesystems keep whole seconds, so a file written
 * during the walk must not get a time that looks older than the walk.
 */
function takenAtOf(now: number): number {
  return Math.floor((now - 1000) / 1000) * 1000;
}

/** The earlier entry when its hash may be reused (a hashed file, older than the earlier walk), else null. */
function reusable(earlier: Manifest | null, rel: string, hashBelow: number): ManifestEntry | null {
  const was = earlier?.takenAt === undefined ? undefined : own(earlier.files, rel);
  // A stored entry is trusted only as far as its shape: a hash string, a size and time that are numbers.
  if (!Array.isArray(was) || typeof was[2] !== "string" || !(was[0] < hashBelow)) return null;
  if (typeof was[3] !== "number" || typeof was[4] !== "number") return null;
  const takenAt = earlier?.takenAt ?? 0;
  return was[1] < takenAt && was[3] < takenAt ? was : null;
}

/**
 * One file's entry: the earlier one when an lstat finds the same regular file's size and time; otherwise a regular
 * file through one non-blocking open (its hash if small), a link by lstat.
 */
async function entryOf(file: string, hashBelow: number, was: ManifestEntry | null): Promise<ManifestEntry | null> {
  if (was) {
    const st = await fs.promises.lstat(file).catch(() => null);
    if (!st) return null;
    if (st.isSymbolicLink()) return [st.size, Math.floor(st.mtimeMs), null];
    if (!st.isFile()) return null;
    if (
      st.size === was[0] &&
      Math.floor(st.mtimeMs) === was[1] &&
      Math.floor(st.ctimeMs) === was[3] &&
      st.ino === was[4]
    )
      return was;
  }
  const handle = await fs.promises.open(file, NONBLOCK).catch(() => null);
  if (!handle) {
    // A link (O_NOFOLLOW refuses it) is recorded as itself, never followed.
    const st = await fs.promises.lstat(file).catch(() => null);
    return st?.isSymbolicLink() ? [st.size, Math.floor(st.mtimeMs), null] : null;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return null;
    let hash: string | null = null;
    if (st.size < hashBelow) {
      // Bounded by the size fstat gave: a file growing meanwhile is not read past it.
      const buffer = Buffer.alloc(st.size);
      const { bytesRead } = await handle.read(buffer, 0, st.size, 0);
      hash = createHash("sha1").update(buffer.subarray(0, bytesRead)).digest("hex");
    }
    return [st.size, Math.floor(st.mtimeMs), hash, Math.floor(st.ctimeMs), st.ino];
  } finally {
    await handle.close();
  }
}

/** How many files of a folder are read at once: the walk is I/O-bound, and the agent waits for it. */
const BATCH = 64;

/**
 * The workspace's manifest: at most `maxFiles` entries (then `truncated`), paths relative with "/". `own`: absolute
 * folders of Plangate's inside it (its data folder) that are skipped with `.plangate`. `earlier`: a manifest of the
 * same workspace whose unchanged small files' hashes are reused.
 */
export async function takeManifest(
  workspace: string,
  limits = MANIFEST_LIMITS,
  own: readonly string[] = [],
  earlier: Manifest | null = null,
): Promise<Manifest> {
  const takenAt = takenAtOf(Date.now());
  // No prototype: a file named "__proto__" is an entry like any other, not the object's prototype.
  const files = Object.create(null) as Record<string, ManifestEntry>;
  let count = 0;
  let truncated = false;
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    const name = (e: fs.Dirent) => (rel ? `${rel}/${e.name}` : e.name);
    const leaves = entries.filter((e) => e.isFile() || e.isSymbolicLink());
    for (let i = 0; i < leaves.length; i += BATCH) {
      const wanted = Math.min(BATCH, leaves.length - i);
      const batch = leaves.slice(i, i + Math.min(wanted, limits.maxFiles - count));
      const got = await Promise.all(
        batch.map((e) =>
          entryOf(path.join(dir, e.name), limits.hashBelow, reusable(earlier, name(e), limits.hashBelow)),
        ),
      );
      batch.forEach((e, j) => {
        const entry = got[j];
        if (!entry) return;
        files[name(e)] = entry;
        count++;
      });
      if (batch.length < wanted) {
        truncated = true;
        return;
      }
    }
    for (const e of entries) {
      if (truncated) return;
      const sub = path.join(dir, e.name);
      if (e.isDirectory() && !SKIP.has(e.name) && !(rel === ".plangate" && e.name === "plans") && !own.includes(sub))
        await walk(sub, name(e));
    }
  };
  await walk(workspace, "");
  return { files, truncated, takenAt };
}

/** A manifest's entry for a path (a file named "constructor" is not Object.prototype's). */
function own(files: Manifest["files"], p: string): ManifestEntry | undefined {
  return Object.hasOwn(files, p) ? files[p] : undefined;
}

function changed(a: ManifestEntry, b: ManifestEntry): boolean {
  if (a[0] !== b[0]) return true;
  // At the same size, a hash on one side only is a small file on one side and a link on the other.
  if ((a[2] === null) !== (b[2] === null)) return true;
  if (a[2] !== null && b[2] !== null) return a[2] !== b[2];
  if (a[1] !== b[1]) return true;
  // A large file has no hash: its change time and inode say it was rewritten though its old time was put back.
  return a[3] !== undefined && b[3] !== undefined && (a[3] !== b[3] || a[4] !== b[4]);
}

/** Pure: what changed between two manifests, per file (no patch: a manifest holds no contents). */
export function diffManifests(before: Manifest, after: Manifest): Omit<Change, "via">[] {
  const out: Omit<Change, "via">[] = [];
  for (const [p, entry] of Object.entries(after.files)) {
    const was = own(before.files, p);
    if (!was) out.push({ path: p, status: "added", patch: "" });
    else if (changed(was, entry)) out.push({ path: p, status: "modified", patch: "" });
  }
  // A file past the cap of either walk is not known to be gone.
  if (!before.truncated && !after.truncated)
    for (const p of Object.keys(before.files))
      if (!own(after.files, p)) out.push({ path: p, status: "deleted", patch: "" });
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** A stored manifest read back; anything that is not one (a damaged row) is null, never trusted as "no files". */
export function parseManifest(text: string | null): Manifest | null {
  if (!text) return null;
  try {
    const m = JSON.parse(text) as Partial<Manifest>;
    if (!m || typeof m.files !== "object" || m.files === null || typeof m.truncated !== "boolean") return null;
    // A taking time that is not a plain number is dropped: the manifest is still a baseline, its hashes not reused.
    const { takenAt, ...rest } = m as Manifest;
    return typeof takenAt === "number" && Number.isFinite(takenAt) ? { ...rest, takenAt } : rest;
  } catch {
    return null;
  }
}
