import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gitSetting } from "./git-config-keys";
import { parseGitConfig } from "./git-config-parse";
import { isInside, readUntrustedText } from "./read-untrusted-file";
import { shellWords, type ShellWord } from "./shell-words";

/** A working tree and its `.git` (a folder, a link, or a `gitdir:` file). */
export type Repository = { worktree: string; dotGit: string };

/** The hooks git runs (githooks(5)): what a hooks folder that is the workspace itself holds as control files. */
export const GIT_HOOKS: readonly string[] = [
  "applypatch-msg",
  "pre-applypatch",
  "post-applypatch",
  "pre-commit",
  "pre-merge-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-rebase",
  "post-checkout",
  "post-merge",
  "pre-push",
  "pre-receive",
  "update",
  "proc-receive",
  "post-receive",
  "post-update",
  "reference-transaction",
  "push-to-checkout",
  "pre-auto-gc",
  "post-rewrite",
  "sendemail-validate",
  "fsmonitor-watchman",
  "p4-changelist",
  "p4-prepare-changelist",
  "p4-post-changelist",
  "p4-pre-submit",
  "post-index-change",
];

/** git follows includes at most this deep. */
const MAX_INCLUDE_DEPTH = 10;

function exists(p: string): boolean {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The repository whose working tree holds `start` (git's discovery: the nearest `.git` above it, even above the workspace). */
export function repositoryOf(start: string): Repository | null {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, ".git");
    if (exists(dotGit)) return { worktree: dir, dotGit };
    if (path.dirname(dir) === dir) return null;
  }
}

/** A setting that makes git take something from the files around it (see git-config-keys), its words split once. */
type Setting =
  | { kind: "include" | "folder" | "worktree"; value: string }
  | { kind: "program"; words: readonly ShellWord[] };

type Cached = { key: string; text: string; settings: Setting[] | null };
/** Every file and resolve-path call reads these: kept while the file's identity, size and times stay the same. */
const cache = new Map<string, Cached>();
const MAX_CACHED = 256;
// A file changed this recently could change again within the clock's granularity, unseen by its times.
const RACY_MS = 2_000;

/** A file inside the workspace is read only if it stays there (no link out); one outside is the host's own. */
function readCached(workspace: string, file: string): Cached | null {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (st === undefined || !st.isFile()) return null;
  // The same file (identity, size, times) as last time: its text was read then, from a place allowed then.
  const key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  const hit = cache.get(file);
  if (hit?.key === key) return hit;
  const text = readUntrustedText(file, isInside(workspace, file) ? workspace : null);
  if (text === null) return null;
  const fresh: Cached = { key, text, settings: null };
  cache.delete(file);
  if (Date.now() - st.ctimeMs > RACY_MS) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(file, fresh);
  }
  return fresh;
}

function read(workspace: string, file: string): string | null {
  return readCached(workspace, file)?.text ?? null;
}

function settingsOf(workspace: string, file: string): Setting[] | null {
  const got = readCached(workspace, file);
  if (got === null) return null;
  got.settings ??= parseGitConfig(got.text).flatMap((entry): Setting[] => {
    const s = gitSetting(entry);
    if (s === null) return [];
    return s.kind === "program" ? [{ kind: "program", words: shellWords(s.value) }] : [s];
  });
  return got.settings;
}

/** The git folder and the common git folder (`commondir`, of a linked worktree) the `.git` entry leads to. */
function gitDirs(workspace: string, repo: Repository): { gitDir: string; commonDir: string } | null {
  let gitDir = repo.dotGit;
  if (fs.lstatSync(repo.dotGit, { throwIfNoEntry: false })?.isFile() === true) {
    const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(read(workspace, repo.dotGit) ?? "");
    if (!pointer) return null;
    gitDir = path.resolve(repo.worktree, pointer[1] as string);
  }
  const common = read(workspace, path.join(gitDir, "commondir"))?.trim();
  return { gitDir: real(gitDir), commonDir: real(common ? path.resolve(gitDir, common) : gitDir) };
}

function real(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}

/** A config file's settings and those of every file it includes (includeIf too, whatever its condition). */
function readConfig(workspace: string, file: string, depth: number, seen: Set<string>, out: Setting[]): void {
  if (depth > MAX_INCLUDE_DEPTH || seen.has(file)) return;
  seen.add(file);
  for (const setting of settingsOf(workspace, file) ?? []) {
    out.push(setting);
    if (setting.kind === "include") {
      const target = expand(setting.value, path.dirname(file));
      if (target !== null) readConfig(workspace, target, depth + 1, seen, out);
    }
  }
}

/** A path value as git expands it: `~/` is the home folder, a relative path is relative to `base`. */
function expand(value: string, base: string): string | null {
  if (value.startsWith("~/")) return path.join(os.homedir(), value.slice(2));
  if (value.startsWith("~") || value.startsWith("%(prefix)/")) return null;
  return path.resolve(base, value);
}

/**
 * The files a command could name, run by git at `top` (the working tree's top folder, or a bare repository's git
 * folder), whether or not they exist yet: every argument that is not an option (`sh fmt-clean.sh`,
 * `python3 tools/x.py`), and the program itself when it has a slash (`./hooks/fsmonitor`) or when the server's
 * PATH looks in a folder relative to where the command runs (`.`, `node_modules/.bin`).
 */
function commandPaths(words: readonly ShellWord[], top: string, relativePath: readonly string[]): string[] {
  const out: string[] = [];
  for (const { word, command } of words) {
    if (word === "" || word.startsWith("-")) continue;
    if (command && !word.includes("/")) {
      for (const dir of relativePath) out.push(path.resolve(top, dir, word));
      continue;
    }
    const p = expand(word, top);
    if (p !== null) out.push(p);
  }
  return out;
}

/** PATH entries that are relative to the folder a command runs in (an empty one is that folder). */
function relativePathEntries(): string[] {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((d) => !path.isAbsolute(d))
    .map((d) => (d === "" ? "." : d));
}

function globalConfigs(): string[] {
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, ".config");
  return [
    process.env.GIT_CONFIG_SYSTEM || "/etc/gitconfig",
    path.join(xdg, "git", "config"),
    process.env.GIT_CONFIG_GLOBAL || path.join(home, ".gitconfig"),
  ];
}

export type GitPointers = {
  /** Git folders inside the workspace that are not named `.git` (a `gitdir:` file or `commondir` leads there). */
  gitDirs: string[];
  /** What the configs point at inside the workspace: the hooks folder (or its hooks), included files, programs. */
  targets: string[];
};

/**
 * What git, run by the person in one of these repositories, would take from the workspace besides `.git` itself:
 * read from the repositories' config and config.worktree (and the person's own global configs, whose relative
 * `core.hooksPath` is relative to each working tree), following includes, at the time of the call. Relative paths
 * are taken from the working tree's top folder and from the one `core.worktree` names. Only paths inside the
 * workspace (absolute) are returned; the files are read as untrusted and git is never run on them.
 */
export function gitPointers(workspace: string, repos: readonly Repository[]): GitPointers {
  const out: GitPointers = { gitDirs: [], targets: [] };
  const globals: Setting[] = [];
  const seenGlobal = new Set<string>();
  for (const file of globalConfigs()) readConfig(workspace, file, 0, seenGlobal, globals);
  const relativePath = relativePathEntries();
  const keep = (list: string[], p: string | null) => {
    if (p !== null && isInside(workspace, p) && p !== workspace) list.push(p);
  };
  for (const repo of repos) {
    const dirs = gitDirs(workspace, repo);
    if (dirs === null) continue;
    for (const d of new Set([dirs.gitDir, dirs.commonDir])) if (path.basename(d) !== ".git") keep(out.gitDirs, d);
    const found: Setting[] = [];
    const seen = new Set<string>();
    readConfig(workspace, path.join(dirs.commonDir, "config"), 0, seen, found);
    readConfig(workspace, path.join(dirs.gitDir, "config.worktree"), 0, seen, found);
    // Every config file git reads for this repository, the person's own included ones too, when it lies in here.
    for (const file of [...seen, ...seenGlobal]) keep(out.targets, file);
    const tops = new Set([repo.worktree]);
    for (const s of found) if (s.kind === "worktree") tops.add(path.resolve(dirs.gitDir, s.value));
    for (const setting of [...found, ...globals]) {
      for (const top of tops) {
        if (setting.kind === "folder") {
          const folder = expand(setting.value, top);
          if (folder === workspace)
            out.targets.push(...GIT_HOOKS.map((h) => path.join(/*turbopackIgnore: true*/ workspace, h)));
          else keep(out.targets, folder);
        } else if (setting.kind === "program") {
          for (const p of commandPaths(setting.words, top, relativePath)) keep(out.targets, p);
        }
      }
    }
  }
  return out;
}
