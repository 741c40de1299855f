import fs from "node:fs";
import { RE2 } from "re2-wasm";
import { at, type Beneath, WorkerError } from "./beneath";
import { compileGlob } from "./glob-match";
import type { GlobResult, GrepHit, GrepResult } from "./protocol";
import { looksBinary, openFile, readUpTo, statPlace } from "./read-ops";
import { walk } from "./walk-ops";

// Glob and grep, apart from the walk: RE2's WebAssembly takes a while to compile, and a worker loads this module
// only for its first search, so reading and writing start as fast as Node.js does.

export function globFiles(b: Beneath, base: string, pattern: string, max: number): GlobResult {
  const matches = compileGlob(pattern);
  const found: { name: string; mtime: number }[] = [];
  walk(b, base, (entry, dirFd, name) => {
    if (entry.kind !== "file" || !matches(entry.relative)) return false;
    const stat = fs.lstatSync(at(dirFd, name), { throwIfNoEntry: false });
    if (stat?.isFile()) found.push({ name: entry.relative, mtime: stat.mtimeMs });
    return false;
  });
  found.sort((a, c) => c.mtime - a.mtime || (a.name < c.name ? -1 : a.name > c.name ? 1 : 0));
  return { files: found.slice(0, max).map((f) => f.name), total: found.length };
}

/**
 * The pattern compiled by RE2 (linear time in the text, whatever the pattern): a model-written regex that would
 * backtrack exponentially in JavaScript cannot stall anything.
 */
export function compileRegex(pattern: string): RE2 {
  try {
    return new RE2(pattern, "u");
  } catch (err) {
    throw new WorkerError(
      "BADPATTERN",
      `Invalid regular expression (RE2 syntax: no look-around or backreferences): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** Text of a searchable file, or null for files grep skips (too big, binary, unreadable, replaced by a link). */
function searchable(fd: number, maxBytes: number): string | null {
  const stat = fs.fstatSync(fd);
  if (!stat.isFile() || stat.size > maxBytes) return null;
  const buffer = readUpTo(fd, maxBytes + 1);
  return buffer.length > maxBytes || looksBinary(buffer) ? null : buffer.toString("utf8");
}

function searchText(text: string, re: RE2, file: string, hits: GrepHit[], max: number): void {
  const lines = text.split(/\r?\n/);
  // The final newline ends the last line; it does not start an empty one that "^$" could match.
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length && hits.length < max; i++)
    if (re.test(lines[i] ?? "")) hits.push({ file, line: i + 1, text: lines[i] ?? "" });
}

/** At most `max` hits; the caller asks one past its limit to tell "exactly" from "more". */
export function grepFiles(
  b: Beneath,
  base: string,
  pattern: string,
  include: string | undefined,
  max: number,
  maxFileBytes: number,
): GrepResult {
  const re = compileRegex(pattern);
  const wanted = include === undefined ? null : compileGlob(include);
  const hits: GrepHit[] = [];
  const kind = statPlace(b, base).kind;
  if (kind === "missing") throw new WorkerError("ENOENT", "does not exist.");
  if (kind !== "file" && kind !== "dir") throw new WorkerError("NOTFILE", "is neither a file nor a folder.");
  const one = kind === "file" ? openFile(b, base) : null;
  if (one !== null) {
    try {
      const text = searchable(one.fd, maxFileBytes);
      if (text !== null) searchText(text, re, "", hits, max);
    } finally {
      fs.closeSync(one.fd);
    }
    return { hits };
  }
  walk(b, base, (entry, dirFd, name) => {
    if (entry.kind !== "file" || (wanted !== null && !wanted(entry.relative))) return false;
    let fd: number;
    try {
      fd = fs.openSync(at(dirFd, name), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch {
      return false;
    }
    try {
      const text = searchable(fd, maxFileBytes);
      if (text !== null) searchText(text, re, entry.relative, hits, max);
    } catch {
      // Unreadable: skipped, as grep does.
    } finally {
      fs.closeSync(fd);
    }
    return hits.length >= max;
  });
  return { hits };
}
