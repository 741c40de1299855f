import fs from "node:fs";
import path from "node:path";

/** The most of a settings file Plangate reads from a workspace. */
export const UNTRUSTED_FILE_LIMIT = 256 * 1024;

export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

const OPEN = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (fs.constants.O_NOFOLLOW ?? 0);

/**
 * A small settings file whose content (and place) someone else chose, read as text, or null: missing, not a regular
 * file (a FIFO would block, /dev/zero never ends), larger than the limit, or — when `bound` is given — reached
 * through a link that leads out of `bound` (the real workspace). Opened without blocking or following a link swapped
 * in after the check. Never throws: a setting that cannot be read is one git could not use either.
 */
export function readUntrustedFile(file: string, bound: string | null): string | null {
  let real: string;
  try {
    real = fs.realpathSync.native(file);
  } catch {
    return null;
  }
  if (bound !== null && !isInside(bound, real)) return null;
  let fd: number;
  try {
    fd = fs.openSync(real, OPEN);
  } catch {
    return null;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > UNTRUSTED_FILE_LIMIT) return null;
    const buffer = Buffer.alloc(st.size);
    let read = 0;
    while (read < buffer.length) {
      const got = fs.readSync(fd, buffer, read, buffer.length - read, read);
      if (got === 0) break;
      read += got;
    }
    return buffer.subarray(0, read).toString("utf8");
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}
