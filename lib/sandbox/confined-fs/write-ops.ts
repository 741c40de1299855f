import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { at, type Beneath, WorkerError } from "./beneath";
import type { WriteResult } from "./protocol";
import { looksBinary, readUpTo } from "./read-ops";

const WRITE_FLAGS =
  fs.constants.O_WRONLY |
  fs.constants.O_CREAT |
  fs.constants.O_TRUNC |
  fs.constants.O_NOFOLLOW |
  fs.constants.O_NONBLOCK;
const FRESH_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;

function writeAll(fd: number, content: string): void {
  const data = Buffer.from(content, "utf8");
  let n = 0;
  while (n < data.length) n += fs.writeSync(fd, data, n, data.length - n);
}

/**
 * Writes a file beneath a writable root, creating missing folders, never through a link (O_NOFOLLOW on every
 * component). `atomic` (the plan file) writes a fresh file aside and renames it over the name, which replaces
 * whatever entry was there (a link, a hard link sharing another file's contents) instead of writing through it.
 */
export function writeText(b: Beneath, path: string, content: string, atomic: boolean, before?: number): WriteResult {
  const place = b.place(path, true);
  const parent = b.parentOf(place, true);
  try {
    if (parent.name === null) throw new WorkerError("EISDIR", "is a directory.");
    const target = at(parent.fd, parent.name);
    const was = fs.lstatSync(target, { throwIfNoEntry: false });
    if (was?.isDirectory()) throw new WorkerError("EISDIR", "is a directory.");
    if (was !== undefined && !was.isFile() && !(atomic && was.isSymbolicLink()))
      throw new WorkerError(was.isSymbolicLink() ? "ELOOP" : "NOTFILE", "is not a regular file.");
    const previous = before === undefined ? {} : { before: was?.isFile() ? textOf(target, before) : null };
    if (!atomic) {
      const fd = fs.openSync(target, WRITE_FLAGS, 0o666);
      try {
        if (!fs.fstatSync(fd).isFile()) throw new WorkerError("NOTFILE", "is not a regular file.");
        writeAll(fd, content);
      } finally {
        fs.closeSync(fd);
      }
      return { existed: was !== undefined, ...previous };
    }
    const temp = at(parent.fd, `.${parent.name}.${randomBytes(6).toString("hex")}.tmp`);
    const fd = fs.openSync(temp, FRESH_FLAGS, 0o644);
    try {
      writeAll(fd, content);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.renameSync(temp, target);
    } catch (error) {
      fs.rmSync(temp, { force: true });
      throw error;
    }
    return { existed: was !== undefined, ...previous };
  } finally {
    b.release(parent.fd);
  }
}

/** A file's text as it is, for a diff: null when it is not a text file of at most `max` bytes. */
function textOf(target: string, max: number): string | null {
  let fd: number;
  try {
    fd = fs.openSync(target, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > max) return null;
    const buffer = readUpTo(fd, max + 1);
    return buffer.length > max || looksBinary(buffer) ? null : buffer.toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

/** Removes a file (never a folder), beneath a writable root; false when there was none. */
export function removeFile(b: Beneath, path: string): { removed: boolean } {
  const place = b.place(path, true);
  let parent: { fd: number; name: string | null };
  try {
    parent = b.parentOf(place, false);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { removed: false };
    throw error;
  }
  try {
    if (parent.name === null) throw new WorkerError("EISDIR", "is a directory.");
    const target = at(parent.fd, parent.name);
    const stat = fs.lstatSync(target, { throwIfNoEntry: false });
    if (stat === undefined) return { removed: false };
    if (stat.isDirectory()) throw new WorkerError("EISDIR", "is a directory.");
    fs.unlinkSync(target);
    return { removed: true };
  } finally {
    b.release(parent.fd);
  }
}
