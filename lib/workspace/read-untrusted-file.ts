import fs from "node:fs";
import path from "node:path";
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";

/** The most Plangate reads of any one file it takes from a workspace (its config, reviewers, a plan, settings). */
export const UNTRUSTED_FILE_LIMIT = 256 * 1024;

export type UntrustedFile =
  | { status: "ok"; bytes: Buffer; size: number; truncated: boolean }
  | { status: "missing" }
  /** `reason` names the file and what is wrong with it; it never holds any of the file's content. */
  | { status: "refused"; reason: string };

export type ReadOptions = {
  /** How the file is named in a refusal (default: its path relative to the root). */
  display?: string;
  /** At most this many bytes (default 256 KiB); a larger file is refused, or with `truncate` cut. */
  limit?: number;
  truncate?: boolean;
  /**
   * "inside" (default): a link is followed when every link on the way resolves inside the root and ends at a
   * regular file there (a repository may point one file at another of its own). "never": any link is refused.
   */
  links?: "inside" | "never";
};

// Non-blocking: a FIFO swapped in after the checks cannot hold the server; no controlling terminal from a tty.
const OPEN =
  fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NOCTTY ?? 0);

const KIB = 1024;
const sizeText = (n: number) => (n % KIB === 0 ? `${n / KIB} KiB` : `${n} bytes`);

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

function kindOf(s: fs.Stats): string {
  if (s.isFIFO()) return "a FIFO";
  if (s.isCharacterDevice() || s.isBlockDevice()) return "a device";
  if (s.isSocket()) return "a socket";
  if (s.isDirectory()) return "a folder";
  if (s.isSymbolicLink()) return "a symbolic link";
  return "not a plain file";
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? "error";
const refused = (display: string, what: string): UntrustedFile => ({ status: "refused", reason: `${display} ${what}` });

/** Where the opened file really is, on Linux (null elsewhere): catches a folder swapped for a link after the checks. */
function openedAt(fd: number): string | null {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/** The file the path names, checked before anything is opened: inside the root, a regular file, no link out. */
function locate(root: string, full: string, display: string, links: "inside" | "never"): string | UntrustedFile {
  let entry: fs.Stats | undefined;
  try {
    entry = fs.lstatSync(full, { throwIfNoEntry: false });
  } catch (error) {
    if (code(error) === "ENOTDIR") return { status: "missing" };
    return refused(display, `cannot be read (${code(error)})`);
  }
  if (links === "never") {
    // Every folder on the way, then the file itself: none may be a link.
    for (let dir = path.dirname(full); inside(root, dir); dir = path.dirname(dir)) {
      if (fs.lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink())
        return refused(display, `is reached through a symbolic link (${path.relative(root, dir)}); it is not read`);
    }
    if (entry === undefined) return { status: "missing" };
    if (entry.isSymbolicLink()) return refused(display, "is a link; it is not read through it");
    return full;
  }
  let real: string;
  try {
    real = fs.realpathSync(full);
  } catch (error) {
    if (entry === undefined) return { status: "missing" };
    if (code(error) === "ELOOP") return refused(display, "is a symbolic link that loops");
    return refused(display, "is a symbolic link to nothing");
  }
  if (!inside(root, real))
    return refused(
      display,
      entry?.isSymbolicLink() === true
        ? "is a symbolic link leading outside the workspace"
        : "is reached through a symbolic link leading outside the workspace",
    );
  return real;
}

/**
 * One file of a workspace (or another folder nobody vouched for), read as untrusted: only a regular file inside
 * `root`, never through a link that leaves it, never a FIFO or device (opened non-blocking, checked by fstat),
 * with one name only (a hard link may be another file's content), and at most `limit` bytes read (limit + 1 at
 * most, never the whole file first). Synchronous: the callers are, and nothing here can block.
 */
export function readUntrustedFile(root: string, relative: string, opts: ReadOptions = {}): UntrustedFile {
  const display = opts.display ?? relative;
  const limit = opts.limit ?? UNTRUSTED_FILE_LIMIT;
  let base: string;
  try {
    base = fs.realpathSync(root);
  } catch {
    return { status: "missing" };
  }
  const full = path.resolve(base, relative);
  if (!inside(base, full)) return refused(display, "is not inside the workspace");
  const located = locate(base, full, display, opts.links ?? "inside");
  if (typeof located !== "string") return located;
  const seen = fs.lstatSync(located, { throwIfNoEntry: false });
  if (seen === undefined) return { status: "missing" };
  if (!seen.isFile()) return refused(display, `is not a regular file (${kindOf(seen)})`);
  if (seen.size > limit && !opts.truncate) return refused(display, `is larger than ${sizeText(limit)}`);
  let fd: number;
  try {
    fd = fs.openSync(located, OPEN);
  } catch (error) {
    if (code(error) === "ENOENT") return { status: "missing" };
    if (code(error) === "ELOOP") return refused(display, "is a link; it is not read through it");
    return refused(display, `cannot be read (${code(error)})`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return refused(display, `is not a regular file (${kindOf(st)})`);
    if (st.ino !== seen.ino || st.dev !== seen.dev) return refused(display, "changed while it was being read");
    const where = openedAt(fd);
    if (where !== null && !inside(base, where))
      return refused(display, "is reached through a symbolic link leading outside the workspace");
    if (st.nlink > 1) return refused(display, "has more than one name (a hard link); it is not read");
    const buffer = Buffer.alloc(Math.min(st.size, limit) + 1);
    let got = 0;
    while (got < buffer.length) {
      const n = fs.readSync(fd, buffer, got, buffer.length - got, got);
      if (n === 0) break;
      got += n;
    }
    if (got > limit && !opts.truncate) return refused(display, `is larger than ${sizeText(limit)}`);
    const size = Math.max(st.size, got);
    return { status: "ok", bytes: buffer.subarray(0, Math.min(got, limit)), size, truncated: got > limit };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * JSON from an untrusted file: JSON.parse's own message quotes the text around the error (the first bytes of
 * whatever the file holds), so a failure is reported by position only.
 */
export function parseUntrustedJson(
  text: string,
  display: string,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const errors: ParseError[] = [];
    parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    if (first === undefined) return { ok: false, reason: `${display} is not valid JSON` };
    const before = text.slice(0, first.offset);
    const line = before.split("\n").length;
    const column = first.offset - before.lastIndexOf("\n");
    return {
      ok: false,
      reason: `${display} is not valid JSON at line ${line} column ${column} (${printParseErrorCode(first.error)})`,
    };
  }
}

/** Whether `p` is `root` or lies under it (absolute paths, compared as they are written). */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * A settings file read as text, or null when it is missing or refused (git could not use it either): inside
 * `bound` (the real workspace) when given, else anywhere its links lead (the person's own global config).
 */
export function readUntrustedText(file: string, bound: string | null): string | null {
  const root = bound ?? "/";
  const read = readUntrustedFile(root, path.relative(root, file));
  return read.status === "ok" ? read.bytes.toString("utf8") : null;
}
