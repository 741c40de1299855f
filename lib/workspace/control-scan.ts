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

/**
 * Walks the workspace for control entries at every depth: cargo reads `.cargo/config.toml` in every folder above
 * where it runs, direnv an `.envrc`, Codex an `AGENTS.md`, git a nested repository's `.git`. Links are not followed
 * (a link named like a control entry is one itself); control folders are not walked into.
 */
export function scanControls(workspace: string): ControlScan {
  const out: ControlScan = { entries: [], repos: [] };
  const walk = (dir: string, parts: string[]): void => {
    let list: fs.Dirent[];
    try {
      list = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of list) {
      const full = path.join(dir, d.name);
      const here = [...parts, d.name];
      if (controlIndex(here) !== -1) {
        out.entries.push(full);
        if (d.name === ".git") out.repos.push({ worktree: dir, dotGit: full });
      } else if (d.isDirectory() && !UNWALKED_DIRS.has(d.name)) {
        walk(full, here);
      }
    }
  };
  walk(workspace, []);
  return out;
}
