import fs from "node:fs";
import path from "node:path";
import {
  CONTROL_DIRS,
  CONTROL_FILE_PATTERNS,
  CONTROL_FILES,
  CONTROL_SUBPATHS,
  GIT_CONTROL,
  WATCHED_DIRS,
} from "./control-names";
import { gitFolderTargets } from "./git-folders";
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

export { CONTROL_DIRS, CONTROL_FILE_PATTERNS, CONTROL_FILES, CONTROL_SUBPATHS, GIT_CONTROL, WATCHED_DIRS };

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
 * too): where its control links lead; a folder on the way to `relative` that is or would become a git folder by
 * what it holds (see git-folders); and what the git config of its repository, of the repository that holds
 * `relative` when that is another one inside the workspace, and of such a git folder points at: the hooks folder,
 * included config files, programs it runs, the git folders a `gitdir:` file or `commondir` leads to. Read afresh at
 * every call: the config may have changed since the last write.
 */
export function controlTargets(workspace: string, relative?: string | null): string[] {
  const repos: Repository[] = [];
  const add = (repo: Repository | null) => {
    if (repo !== null && !repos.some((r) => r.dotGit === repo.dotGit)) repos.push(repo);
  };
  add(repositoryOf(workspace));
  const shape = relative ? gitFolderTargets(workspace, relative) : { targets: [], gitDirs: [] };
  if (relative) add(repositoryOf(path.dirname(path.join(workspace, relative))));
  // A bare repository runs its programs in its git folder (or where its core.worktree says).
  for (const dir of shape.gitDirs) add({ worktree: dir, dotGit: dir });
  const { gitDirs, paths } = pointedPaths(workspace, repos);
  const pointed = [...paths, ...gitDirs.flatMap((d) => GIT_CONTROL.map((part) => path.join(d, part)))]
    .map((t) => toPosix(path.relative(workspace, t)))
    .filter((t) => !isControlPath(t));
  return [...new Set([...controlLinkTargets(workspace), ...shape.targets, ...pointed])];
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
