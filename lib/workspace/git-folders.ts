import fs from "node:fs";
import path from "node:path";
import { GIT_CONTROL } from "./control-names";

/*
 * Git finds repositories by itself: run in a folder (a shell prompt showing the branch, an editor opening it,
 * `git status`), it takes that folder as a bare repository when the folder looks like a git folder, and a `gitdir:`
 * file or a `commondir` anywhere may lead to one. Its test (setup.c, is_git_directory) is a HEAD, and objects/ and
 * refs/ beside it or in the folder `commondir` names; git then reads that folder's `config` and runs its hooks. So a
 * folder is a git folder by what it holds, whatever its name and whoever points at it.
 */

/** The names git looks for in a git folder, and whether each is a folder. */
export const GIT_DIR_MEMBERS: readonly { name: string; dir: boolean }[] = [
  { name: "HEAD", dir: false },
  { name: "config", dir: false },
  { name: "commondir", dir: false },
  { name: "objects", dir: true },
  { name: "refs", dir: true },
];

/** Does a folder holding these members pass git's test? */
export type Holds = (name: string, dir: boolean) => boolean;

export function passesGitTest(holds: Holds): boolean {
  return holds("HEAD", false) && ((holds("objects", true) && holds("refs", true)) || holds("commondir", false));
}

/**
 * A folder that holds two of the members is one write or two from passing git's test (HEAD with objects/ and refs/,
 * or with commondir, is the least git takes, and has two): the write that brings a second member, and any write of a
 * member or a setting after it, is control. A single member (a `config`, a `refs/` folder) is an ordinary name.
 */
export const WOULD_BE_MEMBERS = 2;

const fold = (name: string): string => name.normalize("NFC").toLowerCase();

/** What makes a folder a git folder, and the settings in one (objects/info/alternates by its folder). */
const GIT_NAMES = new Set([
  ...GIT_DIR_MEMBERS.map((m) => fold(m.name)),
  ...GIT_CONTROL.map((p) => p.split("/")[0] as string),
]);
/** The same without objects/ and refs/, which hold data: HEAD and the settings, whose removal undoes the git folder. */
const SETTING_NAMES = new Set([...GIT_NAMES].filter((n) => n !== "objects" && n !== "refs"));

/** A name inside a git folder that is control when the folder only would become one, or is the workspace. */
export function isGitControlName(name: string): boolean {
  return GIT_NAMES.has(fold(name));
}

/** A name that makes the workspace itself a git folder, or configures it: taken away when a command planted it. */
export function isGitSettingName(name: string): boolean {
  return SETTING_NAMES.has(fold(name));
}

/** The members a folder holds, and when that was read: a folder's ctime changes with every entry added or removed. */
type Seen = { ctimeMs: number; members: ReadonlySet<string> };
/** Every write looks at each folder above it: kept while the folder's ctime stays the same (see control-scan). */
const seen = new Map<string, Seen>();
const MAX_SEEN = 512;
const RACY_MS = 2_000;

const memberKey = (name: string, dir: boolean) => `${dir ? "d" : "f"}:${name}`;

/** The git members `dir` holds (a link counts by where it leads, as git opens it), or null when it is no folder. */
function membersOf(dir: string): ReadonlySet<string> | null {
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (st === undefined || !st.isDirectory()) return null;
  const hit = seen.get(dir);
  if (hit !== undefined && hit.ctimeMs === st.ctimeMs) return hit.members;
  const members = new Set<string>();
  // A link's target can appear without this folder changing: a folder with a linked member is read every time.
  let linked = false;
  for (const m of GIT_DIR_MEMBERS) {
    const p = path.join(/*turbopackIgnore: true*/ dir, m.name);
    const l = fs.lstatSync(p, { throwIfNoEntry: false });
    if (l === undefined) continue;
    linked ||= l.isSymbolicLink();
    const isDir = l.isSymbolicLink()
      ? fs.statSync(/*turbopackIgnore: true*/ p, { throwIfNoEntry: false })?.isDirectory() === true
      : l.isDirectory();
    if (isDir === m.dir) members.add(memberKey(m.name, m.dir));
  }
  seen.delete(dir);
  if (!linked && Date.now() - st.ctimeMs > RACY_MS) {
    if (seen.size >= MAX_SEEN) seen.delete(seen.keys().next().value as string);
    seen.set(dir, { ctimeMs: st.ctimeMs, members });
  }
  return members;
}

/**
 * For the file tools: what makes a write to `relative` (workspace-relative, POSIX) a write into a git folder that
 * is or would become one, judged at the time of the write with the written file counted as there. Returns
 * workspace-relative targets: the whole folder when it passes git's test afterwards; the member or setting written
 * when it only would (two members), or when the git folder is the workspace itself. Also the folders, absolute, that
 * pass the test, whose own settings point elsewhere.
 */
export function gitFolderTargets(workspace: string, relative: string): { targets: string[]; gitDirs: string[] } {
  const out = { targets: [] as string[], gitDirs: [] as string[] };
  const parts = relative.split("/").filter((p) => p !== "" && p !== ".");
  for (let i = 0; i < parts.length; i++) {
    const dir = path.join(workspace, ...parts.slice(0, i));
    const members = membersOf(dir);
    if (members === null) break;
    const written = fold(parts[i] as string);
    const deeper = i < parts.length - 1;
    const holds: Holds = (name, isDir) =>
      (written === fold(name) && deeper === isDir) || members.has(memberKey(name, isDir));
    if (GIT_DIR_MEMBERS.filter((m) => holds(m.name, m.dir)).length < WOULD_BE_MEMBERS) continue;
    const rel = parts.slice(0, i).join("/");
    if (passesGitTest(holds)) out.gitDirs.push(dir);
    if (passesGitTest(holds) && i > 0) out.targets.push(rel);
    else if (isGitControlName(parts[i] as string))
      out.targets.push(rel === "" ? (parts[i] as string) : `${rel}/${parts[i]}`);
  }
  return out;
}
