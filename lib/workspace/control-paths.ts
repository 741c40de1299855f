import fs from "node:fs";
import path from "node:path";

/**
 * Folders whose files steer an agent, an editor, git or Plangate itself: whoever writes them can grant
 * themselves rights (`.plangate/config.json`), run code on the next `git status` (`.git/config`) or on the
 * person's next editor or agent start. A write there always asks a person (bypassPermissions aside).
 */
/**
 * Other agents' rule folders: read when the person starts that agent here, and running nothing themselves, so a
 * missing one is checked after a command rather than covered while it runs (each cover costs a writable command
 * a mount point made and removed on the host).
 */
const AGENT_RULE_DIRS: readonly string[] = [".clinerules", ".roo", ".windsurf", ".kiro", ".amazonq", ".continue"];

export const CONTROL_DIRS: readonly string[] = [
  ".plangate",
  ".git",
  ".claude",
  ".opencode",
  ".vscode",
  ".idea",
  ".cursor",
  ".gemini",
  ".codex",
  ".husky",
  ".devcontainer",
  ...AGENT_RULE_DIRS,
];

/** Files that a shell, a package manager or an agent reads as configuration when it starts in the workspace. */
export const CONTROL_FILES: readonly string[] = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".envrc",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmrc",
  ".mcp.json",
  ".gitmodules",
  ".pythonrc",
  ".inputrc",
  // Settings that run programs: OpenCode's project config (MCP servers, plugins), git hook managers, package
  // manager hooks, per-folder tool managers.
  "opencode.json",
  "opencode.jsonc",
  ".pre-commit-config.yaml",
  "lefthook.yml",
  "lefthook.yaml",
  ".lefthook.yml",
  ".pnpmfile.cjs",
  "bunfig.toml",
  "mise.toml",
  ".mise.toml",
];

const DIRS = new Set(CONTROL_DIRS);
const FILES = new Set(CONTROL_FILES);

/**
 * Is this workspace-relative POSIX path (or any folder above it) a control file? "." is the workspace itself.
 * Names are compared without case: on a case-insensitive file system `.Claude/settings.json` is Claude Code's.
 */
export function isControlPath(relative: string): boolean {
  const parts = relative.split("/").filter((p) => p !== "" && p !== ".");
  const last = parts.length - 1;
  return parts.some((raw, i) => {
    const part = raw.normalize("NFC").toLowerCase();
    return DIRS.has(part) || (i === last && FILES.has(part));
  });
}

/**
 * Inside `.git`, what runs code or redirects git to other settings: the config (and a worktree's), hooks,
 * attributes (info/), `commondir` (another common git folder), alternates (other object stores), and the
 * folders of linked worktrees and submodules, each with configs of their own. Commits write only objects,
 * refs, logs and the index, which stay writable.
 */
export const GIT_CONTROL: readonly string[] = [
  "config",
  "config.worktree",
  "commondir",
  "hooks",
  "info",
  "objects/info/alternates",
  "objects/info/http-alternates",
  "worktrees",
  "modules",
];

/** What guards a workspace's control entries while a command allowed to write runs (without a person's exact approval). */
export type ControlGuard = {
  /** Entries that exist: mounted read-only (a mount point cannot be removed, renamed or replaced either). */
  readOnly: string[];
  /** `.git` itself, when it is a folder: bound onto itself so that it cannot be renamed away and rebuilt. */
  pin: string[];
  /** Control folders at the top that do not exist: covered by an empty read-only folder while the command runs. */
  cover: string[];
  /** Control files (and entries inside `.git`) that do not exist and cannot be covered without breaking git: checked after. */
  watch: string[];
};

// Most control entries are missing: no exception (and its stack trace) per miss.
function lstat(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * A control entry that is a link is judged where it leads: a target inside the workspace is guarded like the
 * entry (a command could otherwise write the file that `.claude/settings.json` points to); a target outside is
 * not writable from the sandbox at all, and is never bound (that would show a host path).
 */
function guardEntry(workspace: string, full: string, kind: "dir" | "file", out: ControlGuard): void {
  const stat = lstat(full);
  if (stat === null) {
    (kind === "dir" && !AGENT_RULE_DIRS.includes(path.basename(full)) ? out.cover : out.watch).push(full);
    return;
  }
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
    if (inside(workspace, dest)) out.watch.push(dest);
    return;
  }
  if (inside(workspace, target) && target !== workspace) out.readOnly.push(target);
}

/**
 * Where the workspace's control entries that are links lead, inside the workspace: writing there writes the
 * control file (`.claude → cfg` makes cfg/settings.json Claude Code's settings). Workspace-relative.
 */
export function controlLinkTargets(workspace: string): string[] {
  const out: string[] = [];
  for (const name of [...CONTROL_DIRS, ...CONTROL_FILES]) {
    const full = path.join(workspace, name);
    if (lstat(full)?.isSymbolicLink() !== true) continue;
    let target: string;
    try {
      target = fs.realpathSync(full);
    } catch {
      target = path.resolve(workspace, fs.readlinkSync(full));
    }
    if (inside(workspace, target) && target !== workspace)
      out.push(path.relative(workspace, target).split(path.sep).join("/"));
  }
  return out;
}

/** The guard for one command, from the workspace as it is now. */
export function controlGuard(workspace: string): ControlGuard {
  const out: ControlGuard = { readOnly: [], pin: [], cover: [], watch: [] };
  for (const name of CONTROL_DIRS) {
    const full = path.join(workspace, name);
    const stat = lstat(full);
    if (name === ".git" && stat?.isDirectory()) {
      out.pin.push(full);
      for (const part of GIT_CONTROL) {
        const inner = path.join(full, part);
        const innerStat = lstat(inner);
        if (innerStat === null) out.watch.push(inner);
        else if (!innerStat.isSymbolicLink()) out.readOnly.push(inner);
        else guardEntry(workspace, inner, "file", out);
      }
      continue;
    }
    guardEntry(workspace, full, "dir", out);
  }
  for (const name of CONTROL_FILES) guardEntry(workspace, path.join(workspace, name), "file", out);
  return out;
}
