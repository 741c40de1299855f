import fs from "node:fs";
import path from "node:path";
import { gitPointers, repositoryOf, type Repository } from "./git-pointers";
import { isInside } from "./read-untrusted-file";

/*
 * A control file is one that a program on the host reads and acts on by itself — runs code it names, changes which
 * program runs or where code comes from, or tells a later agent what to do — without the person ever reviewing it as
 * part of the project's source. Whoever writes one can grant themselves rights (`.plangate/config.json`), run code on
 * the person's next `git status`, `cargo run`, `cd` or editor start, or on the next push (CI), or steer every later
 * agent session (`AGENTS.md`). A write to one always asks a person (bypassPermissions aside).
 *
 * Where the line is: files that are the project's source — manifests and build scripts (`package.json`, `Makefile`,
 * `Cargo.toml`, `build.rs`, `pyproject.toml`, `conftest.py`, a `Dockerfile`), the data a program reads (`.env`,
 * `.editorconfig`, `.gitattributes`, which only names drivers the git config defines) and version pins that only pick
 * an installed or officially published version (`.nvmrc`, `.node-version`, `.python-version`, `.ruby-version`) — run
 * when the person asks to build or test, and the person reviews them in the diff like any other edit. A pin that can
 * name a program by path or a plugin (`rust-toolchain.toml`'s `path`, `.tool-versions`' `path:`, mise) is control.
 * Folders that installs and builds fill (`node_modules`, `target`, `.venv`) are outputs, not settings.
 */

/**
 * Other agents' rule folders: read when the person starts that agent here, and running nothing themselves, so a
 * missing one is checked after a command rather than covered while it runs (each cover costs a writable command
 * a mount point made and removed on the host). CI folders act only once pushed: checked after as well.
 */
export const WATCHED_DIRS: readonly string[] = [
  ".clinerules",
  ".roo",
  ".windsurf",
  ".kiro",
  ".amazonq",
  ".continue",
  ".junie",
  ".circleci",
  ".buildkite",
  ".woodpecker",
];

/** Folders whose every file is a control file, at any depth. */
export const CONTROL_DIRS: readonly string[] = [
  ".plangate",
  // Version control: each runs hooks or commands its settings name (`.hg/hgrc` hooks, jj's `ui.pager`).
  ".git",
  ".hg",
  ".jj",
  ".sl",
  // Agents' settings (hooks, MCP servers, plugins, start-up scripts).
  ".claude",
  ".opencode",
  ".cursor",
  ".gemini",
  ".qwen",
  ".codex",
  ".openhands",
  // Editors: tasks run on folder open, language-server binaries, per-folder settings.
  ".vscode",
  ".idea",
  ".zed",
  ".fleet",
  ".helix",
  ".devcontainer",
  // Hook managers, cargo (`runner`, `rustc-wrapper`, `[alias]`), mise.
  ".husky",
  ".cargo",
  ".mise",
  ...WATCHED_DIRS,
];

/** Files that a shell, a tool manager, a package manager, an editor, CI or an agent reads as configuration, at any depth. */
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
  ".pythonrc",
  ".inputrc",
  // Package managers' own settings (registry, script shell, install hooks), not their manifests.
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmrc",
  ".pnpmfile.cjs",
  "bunfig.toml",
  "uv.toml",
  // Toolchain and tool managers: which program `cargo`, `node` or `python` is, and what runs on `cd`.
  "rust-toolchain",
  "rust-toolchain.toml",
  ".tool-versions",
  "mise.toml",
  ".mise.toml",
  // Git: submodules (their URLs and update commands) and git-lfs's settings.
  ".gitmodules",
  ".lfsconfig",
  // Git hook managers.
  ".pre-commit-config.yaml",
  "lefthook.yml",
  "lefthook.yaml",
  ".lefthook.yml",
  ".lefthook.yaml",
  "lefthook-local.yml",
  "lefthook-local.yaml",
  ".lefthook-local.yml",
  ".lefthook-local.yaml",
  // Editors that run a folder's settings: a dev container, Neovim and Vim's exrc, Emacs' dir-locals.
  ".devcontainer.json",
  ".nvim.lua",
  ".nvimrc",
  ".exrc",
  ".dir-locals.el",
  ".dir-locals-2.el",
  // CI: runs on the next push, with the repository's secrets.
  ".gitlab-ci.yml",
  ".travis.yml",
  ".drone.yml",
  ".woodpecker.yml",
  "bitbucket-pipelines.yml",
  "azure-pipelines.yml",
  "jenkinsfile",
  // Agents: settings that run programs, and instructions every later session obeys.
  ".mcp.json",
  "opencode.json",
  "opencode.jsonc",
  ".aider.conf.yml",
  "agents.md",
  "agents.override.md",
  "agent.md",
  "claude.md",
  "claude.local.md",
  "gemini.md",
  "qwen.md",
  ".cursorrules",
  ".windsurfrules",
  ".rules",
  ".goosehints",
];

/** Families of control files, by name: mise's `mise.<env>.toml`, `.mise.local.toml`…, and VS Code workspaces. */
export const CONTROL_FILE_PATTERNS: readonly RegExp[] = [/^\.?mise\.[^/]+\.toml$/, /\.code-workspace$/];

/** A folder or file that is control only inside a given folder: `.github/workflows`, not `.github/ISSUE_TEMPLATE`. */
export const CONTROL_SUBPATHS: readonly string[] = [
  ".github/workflows",
  ".github/copilot-instructions.md",
  ".github/instructions",
  ".github/agents",
  ".gitea/workflows",
  ".forgejo/workflows",
  ".config/mise",
  ".config/mise.toml",
  "mise/config.toml",
  ".yarn/releases",
  ".yarn/plugins",
  ".bundle/config",
];

const DIRS = new Set(CONTROL_DIRS);
const FILES = new Set(CONTROL_FILES);
const SUBPATHS = new Set(CONTROL_SUBPATHS);

const fold = (part: string): string => part.normalize("NFC").toLowerCase();

/**
 * The index of the component at which a path (split into components) becomes a control entry, or -1. Everything
 * below that component is control too; nothing above it is.
 */
export function controlIndex(parts: readonly string[]): number {
  const last = parts.length - 1;
  let previous = "";
  for (let i = 0; i <= last; i++) {
    const part = fold(parts[i] as string);
    if (DIRS.has(part) || (i > 0 && SUBPATHS.has(`${previous}/${part}`))) return i;
    if (i === last && (FILES.has(part) || CONTROL_FILE_PATTERNS.some((re) => re.test(part)))) return i;
    previous = part;
  }
  return -1;
}

/**
 * Is this workspace-relative POSIX path (or any folder above it) a control file by its name? "." is the workspace
 * itself. Names are compared without case: on a case-insensitive file system `.Claude/settings.json` is Claude Code's.
 */
export function isControlPath(relative: string): boolean {
  return controlIndex(relative.split("/").filter((p) => p !== "" && p !== ".")) !== -1;
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

const toPosix = (rel: string): string => rel.split(path.sep).join("/");

/**
 * Where the workspace's control entries that are links lead, inside the workspace: writing there writes the
 * control file (`.claude → cfg` makes cfg/settings.json Claude Code's settings). Workspace-relative.
 */
export function controlLinkTargets(workspace: string): string[] {
  const out: string[] = [];
  let top: fs.Dirent[];
  try {
    top = fs.readdirSync(workspace, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of top) {
    if (!entry.isSymbolicLink()) continue;
    // `.github → cfg` makes cfg/workflows GitHub's workflows.
    const inner = CONTROL_SUBPATHS.filter((s) => s.startsWith(`${fold(entry.name)}/`)).map((s) => s.split("/")[1]);
    if (controlIndex([entry.name]) === -1 && inner.length === 0) continue;
    const full = path.join(workspace, entry.name);
    let target: string;
    try {
      target = fs.realpathSync.native(full);
    } catch {
      target = path.resolve(workspace, fs.readlinkSync(full));
    }
    if (!isInside(workspace, target)) continue;
    const rel = toPosix(path.relative(workspace, target));
    if (inner.length > 0) out.push(...inner.map((child) => (rel === "" ? `${child}` : `${rel}/${child}`)));
    else if (target !== workspace) out.push(rel);
  }
  return out;
}

/**
 * Control by what the workspace says now rather than by name (workspace-relative; everything under one is control
 * too): where its control links lead, and what the git config of its repository — and of the repository that
 * holds `relative`, when that is another one inside the workspace — points at: the hooks folder, included config
 * files, programs it runs. Read afresh at every call: the config may have changed since the last write.
 */
export function controlTargets(workspace: string, relative?: string | null): string[] {
  const repos: Repository[] = [];
  for (const start of [workspace, relative ? path.dirname(path.join(workspace, relative)) : workspace]) {
    const repo = repositoryOf(start);
    if (repo !== null && !repos.some((r) => r.dotGit === repo.dotGit)) repos.push(repo);
  }
  const { gitDirs, paths } = pointedPaths(workspace, repos);
  const pointed = [...paths, ...gitDirs.flatMap((d) => GIT_CONTROL.map((part) => path.join(d, part)))]
    .map((t) => toPosix(path.relative(workspace, t)))
    .filter((t) => !isControlPath(t));
  return [...new Set([...controlLinkTargets(workspace), ...pointed])];
}

/**
 * What the repositories' git config makes control inside the workspace (absolute; see gitPointers): git folders not
 * named `.git` (whose GIT_CONTROL parts are control), and the paths it points at, also where they lead through links
 * (a hooks folder `hooks → tools/h` is written at tools/h).
 */
export function pointedPaths(workspace: string, repos: readonly Repository[]): { gitDirs: string[]; paths: string[] } {
  const { gitDirs, targets } = gitPointers(workspace, repos);
  const led = targets.map(leadsTo).filter((p) => isInside(workspace, p) && p !== workspace);
  return { gitDirs, paths: [...new Set([...targets, ...led])] };
}

/** Where a path leads: its longest existing part resolved through links, the rest appended. */
function leadsTo(p: string): string {
  const rest: string[] = [];
  for (let dir = p; ; dir = path.dirname(dir)) {
    try {
      return path.join(fs.realpathSync(dir), ...rest.reverse());
    } catch {
      if (path.dirname(dir) === dir) return p;
      rest.push(path.basename(dir));
    }
  }
}

/** Is this workspace-relative path at or under one of `targets`? */
export function underTarget(relative: string, targets: readonly string[]): boolean {
  return targets.some((t) => relative === t || relative.startsWith(`${t}/`));
}
