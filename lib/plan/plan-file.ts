import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { readUntrustedFile } from "../workspace/read-untrusted-file";

/** A plan path that cannot be used safely: the caller turns it into the error its user reads. */
export class PlanFileError extends Error {
  override name = "PlanFileError";
}

/**
 * The folders from the workspace down to the plan file's folder, each of which must be a real folder (or not
 * exist yet), never a link: a cloned repository can plant `.plangate/plans` → `../src` or a link named like
 * the plan file, and following either would write or read somewhere else.
 */
function checkFolders(workspace: string, file: string, create: boolean): void {
  const rel = path.relative(workspace, path.dirname(file));
  if (rel.startsWith("..") || path.isAbsolute(rel))
    throw new PlanFileError(`The plan file ${file} is not inside the workspace.`);
  let dir = workspace;
  for (const part of rel === "" ? [] : rel.split(path.sep)) {
    dir = path.join(dir, part);
    let stat: fs.Stats | null = null;
    try {
      stat = fs.lstatSync(dir);
    } catch {
      stat = null;
    }
    if (stat === null) {
      if (!create) return;
      fs.mkdirSync(dir);
      continue;
    }
    if (stat.isSymbolicLink() || !stat.isDirectory())
      throw new PlanFileError(
        `${path.relative(workspace, dir)} is a link or not a folder; the plan file is not written through it.`,
      );
  }
}

/** The plan path as it can be used now: its folders real, and the file (if there) a regular file, not a link. */
export function planFileUsable(workspace: string, file: string): boolean {
  try {
    checkFolders(workspace, file, false);
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    return stat === undefined || stat.isFile();
  } catch {
    return false;
  }
}

/** Creates the plans folder, one level at a time, refusing a link on the way. */
export function preparePlanDir(workspace: string, file: string): void {
  checkFolders(workspace, file, true);
}

/**
 * Writes the plan file as a fresh file: a temporary file in the same folder, then an atomic rename over the
 * name. The rename replaces whatever entry was there (a link to a source file, a hard link sharing a source
 * file's contents) instead of writing through it, and a reader never sees half a plan.
 */
export function writePlanFile(workspace: string, file: string, content: string): void {
  checkFolders(workspace, file, true);
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = fs.openSync(
    temp,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
    0o644,
  );
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * The plan file's text, or null when it is missing; never read through a link (it could show a secret as a plan),
 * never a FIFO or device, never more than 256 KiB (lib/workspace/read-untrusted-file.ts).
 */
export function readPlanFile(workspace: string, file: string): string | null {
  checkFolders(workspace, file, false);
  const relative = path.relative(workspace, file);
  const got = readUntrustedFile(workspace, relative, { links: "never", display: `The plan file ${relative}` });
  if (got.status === "missing") return null;
  if (got.status === "refused") throw new PlanFileError(got.reason);
  return got.bytes.toString("utf8");
}
