import fs from "node:fs";
import { at, type Beneath, WorkerError } from "./beneath";
import type { EntryKind, ReadLinesResult, ReadTextResult, StatResult } from "./protocol";

/** O_NONBLOCK: opening a FIFO would otherwise hang until another process opened its other end. */
const READ_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
const CHUNK = 64 * 1024;

/** A NUL byte in the first 8 KB: the same heuristic git and grep use for "binary". */
export function looksBinary(head: Uint8Array): boolean {
  const end = Math.min(head.length, 8192);
  for (let i = 0; i < end; i++) if (head[i] === 0) return true;
  return false;
}

export function kindOf(stat: fs.Stats | fs.Dirent): EntryKind {
  if (stat.isDirectory()) return "dir";
  if (stat.isFile()) return "file";
  if (stat.isSymbolicLink()) return "symlink";
  return "other";
}

/** The place's own entry, never followed: a link is reported as one. */
export function statPlace(b: Beneath, path: string): StatResult {
  const place = b.place(path, false);
  let parent: { fd: number; name: string | null };
  try {
    parent = b.parentOf(place, false);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing", size: 0, mtimeMs: 0 };
    throw error;
  }
  try {
    const stat =
      parent.name === null
        ? fs.fstatSync(parent.fd)
        : fs.lstatSync(at(parent.fd, parent.name), { throwIfNoEntry: false });
    if (stat === undefined) return { kind: "missing", size: 0, mtimeMs: 0 };
    return { kind: kindOf(stat), size: stat.size, mtimeMs: stat.mtimeMs };
  } finally {
    b.release(parent.fd);
  }
}

/** Opens a regular file for reading, beneath the roots and through no link; null when it does not exist. */
export function openFile(b: Beneath, path: string): { fd: number; size: number } | null {
  const place = b.place(path, false);
  let parent: { fd: number; name: string | null };
  try {
    parent = b.parentOf(place, false);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  let fd: number;
  try {
    if (parent.name === null) throw new WorkerError("EISDIR", "is a directory.");
    fd = fs.openSync(at(parent.fd, parent.name), READ_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  } finally {
    b.release(parent.fd);
  }
  const stat = fs.fstatSync(fd);
  if (stat.isFile()) return { fd, size: stat.size };
  fs.closeSync(fd);
  if (stat.isDirectory()) throw new WorkerError("EISDIR", "is a directory.");
  throw new WorkerError("NOTFILE", "is not a regular file.");
}

/**
 * Reads at most `max` bytes of an open file. The buffer starts at the size fstat gave (one byte more, to see a file
 * that grew) and grows only if the file did: a limit of megabytes costs nothing for a file of a few lines.
 */
export function readUpTo(fd: number, max: number): Buffer {
  const size = fs.fstatSync(fd).size;
  let out = Buffer.allocUnsafe(Math.min(max, size + 1));
  let n = 0;
  for (;;) {
    if (n === out.length) {
      if (out.length >= max) break;
      const bigger = Buffer.allocUnsafe(Math.min(max, out.length * 2 + 1));
      out.copy(bigger, 0, 0, n);
      out = bigger;
    }
    const got = fs.readSync(fd, out, n, out.length - n, n);
    if (got === 0) break;
    n += got;
  }
  return out.subarray(0, n);
}

/** A whole text file for edit, write's diff and apply_patch: refused when binary or over `maxBytes`. */
export function readText(b: Beneath, path: string, maxBytes: number): ReadTextResult {
  const file = openFile(b, path);
  if (file === null) return { missing: true };
  try {
    if (file.size > maxBytes)
      throw new WorkerError("TOOBIG", `is ${file.size} bytes, over the ${maxBytes}-byte limit for this tool.`);
    // One byte past the limit tells a file that grew since fstat apart from one that fits.
    const buffer = readUpTo(file.fd, maxBytes + 1);
    if (buffer.length > maxBytes) throw new WorkerError("TOOBIG", `is over the ${maxBytes}-byte limit.`);
    if (looksBinary(buffer)) throw new WorkerError("BINARY", "is a binary file.");
    return { text: buffer.toString("utf8") };
  } finally {
    fs.closeSync(file.fd);
  }
}

/**
 * Lines `first`..`first + limit - 1` (1-based) of a text file, read in chunks so a line range of a huge log costs
 * only the lines up to it. Lines end at \n, \r\n or a lone \r, as readline reads them.
 */
export function readLines(b: Beneath, path: string, first: number, limit: number): ReadLinesResult {
  const file = openFile(b, path);
  if (file === null) throw new WorkerError("ENOENT", "does not exist.");
  try {
    const head = readUpTo(file.fd, Math.min(8192, file.size));
    if (looksBinary(head)) throw new WorkerError("BINARY", "is a binary file.");
    return windowOf(file.fd, first, limit);
  } finally {
    fs.closeSync(file.fd);
  }
}

function windowOf(fd: number, first: number, limit: number): ReadLinesResult {
  const decoder = new TextDecoder("utf-8");
  const buffer = Buffer.allocUnsafe(CHUNK);
  const lines: string[] = [];
  let n = 0;
  let partial = "";
  let position = 0;
  let skipLf = false;
  // Returns true once the window is full and one more line was seen.
  const take = (line: string): boolean => {
    n++;
    if (n < first) return false;
    if (lines.length === limit) return true;
    lines.push(line);
    return false;
  };
  for (;;) {
    const got = fs.readSync(fd, buffer, 0, CHUNK, position);
    position += got;
    let text = got === 0 ? decoder.decode() : decoder.decode(buffer.subarray(0, got), { stream: true });
    if (skipLf && text.startsWith("\n")) text = text.slice(1);
    skipLf = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      if (take(partial + text.slice(start, i))) return { lines, total: n, more: true };
      partial = "";
      if (c === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else skipLf = true;
      }
      start = i + 1;
    }
    partial += text.slice(start);
    if (got === 0) break;
  }
  if (partial !== "" && take(partial)) return { lines, total: n, more: true };
  return { lines, total: n, more: false };
}
