import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { tightenTree } from "../db/private-files";
import { controlGuard, newControlEntries, type ControlGuard } from "../workspace/control-guard";

/** Covers in use by commands of this process: a cover's folder is removed only once no command holds it. */
const covering = new Map<string, number>();

export type HeldGuard = { guard: ControlGuard; release: () => string[] };

function exists(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/**
 * Moves what a command planted out of the workspace, kept for a person to look at; removed if it cannot be moved.
 * The quarantine is in the data folder: its folders and files are the server's user's only, whatever the umask.
 */
export function quarantine(workspace: string, planted: string, into: string): void {
  const dest = path.join(into, path.relative(workspace, planted));
  try {
    fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
    fs.renameSync(planted, dest);
  } catch {
    fs.rmSync(planted, { recursive: true, force: true });
    return;
  }
  tightenTree(dest);
}

/**
 * Takes the guard for one command that may write. `release`, called once the command has ended (whatever its
 * outcome), removes anything it planted where a control file was missing (a file, a folder inside `.git`, something
 * inside a cover, which another instance may have removed meanwhile, or a control entry at any depth that was not
 * there before — `crates/app/.cargo`, `docs/AGENTS.md`) and returns those paths, workspace-relative: the call is then
 * reported as refused, before a later command or the person's git, cargo or agent reads them.
 */
export function holdControlGuard(workspace: string, quarantineRoot: string): HeldGuard {
  const found = controlGuard(workspace);
  // An empty folder that is another running command's cover is this command's cover too: it stays until both end.
  const shared = found.readOnly.filter((p) => covering.has(p));
  const guard = {
    ...found,
    readOnly: found.readOnly.filter((p) => !covering.has(p)),
    cover: [...found.cover, ...shared],
  };
  for (const c of guard.cover) covering.set(c, (covering.get(c) ?? 0) + 1);
  // An empty control folder could be another instance's cover, removed while this command runs (which detaches
  // this command's read-only mount of it): it must still be empty afterwards.
  const empty = guard.readOnly.filter((p) => exists(p)?.isDirectory() === true && fs.readdirSync(p).length === 0);
  let released = false;
  const release = (): string[] => {
    if (released) return [];
    released = true;
    const planted: string[] = [];
    for (const p of guard.watch) if (exists(p) !== null) planted.push(p);
    for (const p of empty) {
      const stat = exists(p);
      if (stat === null) continue;
      if (!stat.isDirectory()) planted.push(p);
      else for (const name of fs.readdirSync(p)) planted.push(path.join(p, name));
    }
    for (const c of guard.cover) {
      const left = (covering.get(c) ?? 1) - 1;
      if (left > 0) covering.set(c, left);
      else covering.delete(c);
      const stat = exists(c);
      if (stat === null) continue;
      if (!stat.isDirectory() || fs.readdirSync(c).length > 0) planted.push(c);
      else if (left === 0) {
        try {
          fs.rmdirSync(c);
        } catch {
          // Another command (of another instance) holds it now; it removes it after.
        }
      }
    }
    // Covers are empty mount points until removed above; anything planted inside one is already named.
    const handled = [...guard.cover, ...planted];
    for (const p of newControlEntries(workspace, guard))
      if (!handled.some((h) => p === h || p.startsWith(`${h}${path.sep}`))) planted.push(p);
    if (planted.length > 0) {
      const into = path.join(
        quarantineRoot,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(3).toString("hex")}`,
      );
      for (const p of planted) quarantine(workspace, p, into);
    }
    return planted.map((p) => path.relative(workspace, p));
  };
  return { guard, release };
}
