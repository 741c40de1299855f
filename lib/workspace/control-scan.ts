import fs from "node:fs";
import path from "node:path";
import { controlIndex } from "./control-paths";
import type { Repository } from "./git-pointers";

/**
 * Folders that installs and builds fill, from which no one starts a tool or an agent: not walked, so a workspace with
 * dependencies installed costs a writable command a walk of its own files only.
 */
export const UNWALKED_DIRS: ReadonlySet<string> = new Set(["node_modules", "target", ".venv", "__pycache__", ".next"]);

export type ControlScan = {
  /** Every control entry in the workspace (absolute), at any depth: the topmost one of a path; nothing inside it. */
  entries: string[];
  /** The repositories found inside the workspace (a `.git` of any kind), each with settings that may point elsewhere. */
  repos: Repository[];
};

/** What one folder held when it was last read: its control entries and the folders to walk into. */
type Folder = { ctime: bigint; racy: boolean; controls: string[]; dirs: string[] };

/*
 * A walk reads every folder, and runs twice per writable command (before and after). A folder's ctime changes
 * whenever an entry is added, removed or renamed in it, and no command can set it back, so a folder whose ctime is
 * what it was last time holds the same names: only its sub-folders are looked at again. A folder changed within
 * RACY_MS of being read (a coarse clock could give the next change the same time) is read again every time.
 */
const RACY_MS = 2_000;
const MAX_WORKSPACES = 8;
const remembered = new Map<string, Map<string, Folder>>();

function read(dir: string, parent: string, ctime: bigint, ctimeMs: number): Folder {
  const folder: Folder = { ctime, racy: Date.now() - ctimeMs < RACY_MS, controls: [], dirs: [] };
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
  return folder;
}

/**
 * Walks the workspace for control entries at every depth: cargo reads `.cargo/config.toml` in every folder above
 * where it runs, direnv an `.envrc`, Codex an `AGENTS.md`, git a nested repository's `.git`. Links are not followed
 * (a link named like a control entry is one itself); control folders are not walked into.
 */
export function scanControls(workspace: string): ControlScan {
  const out: ControlScan = { entries: [], repos: [] };
  const before = remembered.get(workspace);
  const now = new Map<string, Folder>();
  const walk = (dir: string, parent: string): void => {
    const st = fs.lstatSync(dir, { bigint: true, throwIfNoEntry: false });
    if (st === undefined || !st.isDirectory()) return;
    const known = before?.get(dir);
    const folder =
      known !== undefined && !known.racy && known.ctime === st.ctimeNs
        ? known
        : read(dir, parent, st.ctimeNs, Number(st.ctimeMs));
    now.set(dir, folder);
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
