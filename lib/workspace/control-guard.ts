import fs from "node:fs";
import path from "node:path";
import { CONTROL_DIRS, controlLinkTargets, GIT_CONTROL, pointedPaths, WATCHED_DIRS } from "./control-paths";
import { scanControls } from "./control-scan";
import { repositoryOf, type Repository } from "./git-pointers";
import { isInside } from "./read-untrusted-file";

/** What guards a workspace's control entries while a command allowed to write runs (without a person's exact approval). */
export type ControlGuard = {
  /** Entries that exist: mounted read-only (a mount point cannot be removed, renamed or replaced either). */
  readOnly: string[];
  /** Each `.git` folder: bound onto itself so that it cannot be renamed away and rebuilt. */
  pin: string[];
  /** Control folders at the top that do not exist: covered by an empty read-only folder while the command runs. */
  cover: string[];
  /** Control entries that do not exist and cannot be covered without breaking git: checked after. */
  watch: string[];
  /**
   * Every control entry at any depth, and everything mounted, when the command started, as `path\0device:inode`: a
   * control entry found after it that is not here was planted, and so was one here that is now another file — a
   * command may rename a folder above a mount and put its own in its place (`mv tools t2 && mkdir -p tools/hooks`).
   */
  known: string[];
};

// Most control entries are missing: no exception (and its stack trace) per miss.
function lstat(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/**
 * An entry that exists is mounted read-only. One that is a link is judged where it leads: a target inside the
 * workspace is guarded like the entry (a command could otherwise write the file that `.claude/settings.json` points
 * to); a target outside is not writable from the sandbox at all, and is never bound (that would show a host path).
 */
function guardExisting(workspace: string, full: string, stat: fs.Stats, out: ControlGuard): void {
  if (!stat.isSymbolicLink()) {
    out.readOnly.push(full);
    return;
  }
  let target: string;
  try {
    target = fs.realpathSync(full);
  } catch {
    // Dangling: whatever a command creates at its target would be read through the link.
    const dest = path.resolve(path.dirname(full), fs.readlinkSync(full));
    if (isInside(workspace, dest)) out.watch.push(dest);
    return;
  }
  if (isInside(workspace, target) && target !== workspace) out.readOnly.push(target);
}

/** A `.git` folder: pinned, its settings read-only (or checked after when missing); objects, refs and index writable. */
function guardGitDir(workspace: string, dir: string, out: ControlGuard): void {
  out.pin.push(dir);
  for (const part of GIT_CONTROL) {
    const inner = path.join(dir, part);
    const stat = lstat(inner);
    if (stat === null) out.watch.push(inner);
    else guardExisting(workspace, inner, stat, out);
  }
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/** The guard for one command, from the workspace as it is now. */
export function controlGuard(workspace: string): ControlGuard {
  const out: ControlGuard = { readOnly: [], pin: [], cover: [], watch: [], known: [] };
  for (const name of CONTROL_DIRS) {
    const full = path.join(workspace, name);
    if (lstat(full) === null) (WATCHED_DIRS.includes(name) ? out.watch : out.cover).push(full);
  }
  const scan = scanControls(workspace);
  for (const entry of scan.entries) {
    const stat = lstat(entry);
    if (stat === null) continue;
    if ((path.basename(entry) === ".git" && stat.isDirectory()) || scan.gitDirs.includes(entry))
      guardGitDir(workspace, entry, out);
    else guardExisting(workspace, entry, stat, out);
  }
  // What git config points at: the hooks folder, included files, programs. Read from the real workspace.
  const real = realpath(workspace);
  const repos: Repository[] = [];
  for (const found of [repositoryOf(real), ...scan.repos]) {
    if (found === null) continue;
    const inReal = (p: string) =>
      isInside(workspace, p) ? path.join(/*turbopackIgnore: true*/ real, path.relative(workspace, p)) : p;
    const repo = { worktree: inReal(found.worktree), dotGit: inReal(found.dotGit) };
    if (!repos.some((r) => r.dotGit === repo.dotGit)) repos.push(repo);
  }
  const pointed = pointedPaths(real, repos);
  const here = (p: string) => path.join(workspace, path.relative(real, p));
  for (const dir of pointed.gitDirs) guardGitDir(workspace, here(dir), out);
  // And where a top-level link named like a control subpath's folder leads (`.github → ci`: ci/workflows).
  const led = controlLinkTargets(real).map((rel) => path.join(/*turbopackIgnore: true*/ real, rel));
  for (const full of [...pointed.paths, ...led].map(here)) {
    if (out.readOnly.some((g) => isInside(g, full))) continue;
    const stat = lstat(full);
    if (stat === null) out.watch.push(full);
    else guardExisting(workspace, full, stat, out);
  }
  const unique = (list: string[]) => [...new Set(list)];
  const readOnly = unique(out.readOnly);
  const pin = unique(out.pin);
  return {
    readOnly,
    pin,
    cover: unique(out.cover),
    watch: unique(out.watch),
    known: unique([...scan.entries, ...pin, ...readOnly]).flatMap((p) => {
      const id = identity(p);
      return id === null ? [] : [`${p}\0${id}`];
    }),
  };
}

function identity(p: string): string | null {
  const st = lstat(p);
  return st === null ? null : `${st.dev}:${st.ino}`;
}

/**
 * After the command: control entries found now, at any depth, that were not there when `guard` was taken, and
 * guarded paths that now hold another file or folder than the one guarded (absolute).
 */
export function newControlEntries(workspace: string, guard: ControlGuard): string[] {
  const known = new Map(guard.known.map((k) => k.split("\0") as [string, string]));
  const replaced = [...known].flatMap(([p, id]) => {
    const now = identity(p);
    return now !== null && now !== id ? [p] : [];
  });
  return [...scanControls(workspace).entries.filter((e) => !known.has(e)), ...replaced];
}
