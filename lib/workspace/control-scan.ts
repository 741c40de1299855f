import fs from "node:fs";
import path from "node:path";
import { controlIndex } from "./control-paths";
import { isGitControlName, isGitSettingName, passesGitTest } from "./git-folders";
import type { Repository } from "./git-pointers";

/**
 * Folders that installs and builds fill, from which no one starts a tool or an agent: not walked, so a workspace with
 * dependencies installed costs a writable command a walk of its own files only.
 */
export const UNWALKED_DIRS: ReadonlySet<string> = new Set(["node_modules", "target", ".venv", "__pycache__", ".next"]);

export type ControlScan = {
  /** Every control entry in the workspace (absolute), at any depth: the topmost one of a path; nothing inside it. */
  entries: string[];
  /**
   * The repositories found inside the workspace (a `.git` of any kind, and every folder that passes git's test for a
   * git folder, as a bare repository), each with settings that may point elsewhere.
   */
  repos: Repository[];
  /** Folders below the top that pass git's test (see git-folders), whatever their name: entries, guarded like `.git`. */
  gitDirs: string[];
};

/** What one folder held when it was last read: its control entries, the folders to walk into, whether git takes it as a git folder. */
type Folder = { ctime: bigint; racy: boolean; controls: string[]; dirs: string[]; gitDir: boolean };

/*
 * A walk reads every folder, and runs twice per writable command (before and after). A folder's ctime changes
 * whenever an entry is added, removed or renamed in it, and no command can set it back, so a folder whose ctime is
 * what it was last time holds the same names: only its sub-folders are looked at again. A folder changed within
 * RACY_MS of being read (a coarse clock could give the next change the same time) is read again every time.
 */
const RACY_MS = 2_000;
const MAX_WORKSPACES = 8;
const remembered = new Map<string, Map<string, Folder>>();

function read(dir: string, parent: string, ctime: bigint, ctimeMs: number, top: boolean): Folder {
  const folder: Folder = { ctime, racy: Date.now() - ctimeMs < RACY_MS, controls: [], dirs: [], gitDir: false };
  let list: fs.Dirent[];
  try {
    list = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return { ...folder, racy: true };
  }
  for (const d of list) {
    const parts = parent === "" ? [d.name] : [parent, d.name];
    if (controlIndex(parts) !== -1) folder.controls.push(d.name);
    else if (d.isDirectory() && !UNWALKED_DIRS.has(d.name)) folder.dirs.push(d.name);
  }
  const folded = (name: string) => name.normalize("NFC").toLowerCase();
  folder.gitDir = passesGitTest((name, isDir) =>
    list.some((d) => folded(d.name) === folded(name) && isDirEntry(dir, d) === isDir),
  );
  // A link's target can appear without this folder changing: a folder with one among git's names is read every time.
  if (list.some((d) => d.isSymbolicLink() && isGitControlName(d.name))) folder.racy = true;
  // The workspace itself cannot be moved away: its HEAD and settings are the entries (objects and refs are data).
  if (folder.gitDir && top) for (const d of list) if (isGitSettingName(d.name)) folder.controls.push(d.name);
  if (folder.gitDir && top) folder.dirs = folder.dirs.filter((name) => !folder.controls.includes(name));
  return folder;
}

/** A folder, or a link to one (git follows links to objects/ and refs/). */
function isDirEntry(dir: string, d: fs.Dirent): boolean {
  if (!d.isSymbolicLink()) return d.isDirectory();
  return fs.statSync(path.join(dir, d.name), { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * Walks the workspace for control entries at every depth: cargo reads `.cargo/config.toml` in every folder above
 * where it runs, direnv an `.envrc`, Codex an `AGENTS.md`, git a nested repository's `.git`. Links are not followed
 * (a link named like a control entry is one itself); control folders are not walked into.
 */
export function scanControls(workspace: string): ControlScan {
  const out: ControlScan = { entries: [], repos: [], gitDirs: [] };
  const before = remembered.get(workspace);
  const now = new Map<string, Folder>();
  const walk = (dir: string, parent: string): void => {
    const st = fs.lstatSync(dir, { bigint: true, throwIfNoEntry: false });
    if (st === undefined || !st.isDirectory()) return;
    const known = before?.get(dir);
    const folder =
      known !== undefined && !known.racy && known.ctime === st.ctimeNs
        ? known
        : read(dir, parent, st.ctimeNs, Number(st.ctimeMs), dir === workspace);
    now.set(dir, folder);
    if (folder.gitDir) out.repos.push({ worktree: dir, dotGit: dir });
    if (folder.gitDir && dir !== workspace) {
      // A git folder is one entry (moved away whole when planted), not walked into: its inside is git's.
      out.entries.push(dir);
      out.gitDirs.push(dir);
      return;
    }
    for (const name of folder.controls) {
      out.entries.push(path.join(dir, name));
      if (name === ".git") out.repos.push({ worktree: dir, dotGit: path.join(dir, ".git") });
    }
    for (const name of folder.dirs) walk(path.join(dir, name), name.normalize("NFC").toLowerCase());
  };
  walk(workspace, "");
  remembered.delete(workspace);
  if (remembered.size >= MAX_WORKSPACES) remembered.delete(remembered.keys().next().value as string);
  remembered.set(workspace, now);
  return out;
}
