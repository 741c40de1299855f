/**
 * What the server asks the file worker (one JSON line per request, one per answer). The worker runs the agent's
 * file tools' I/O inside the session's confined view (bubblewrap: the workspace, the plan folder, folders a person
 * allowed) and refuses any path beneath none of its roots; the server never opens a file the model named.
 */

/** A folder the worker may touch, and whether it may change what is under it. */
export type Root = { path: string; write: boolean };

/** Fixed when the worker starts: what it may reach, and what it must act as if it could not see. */
export type WorkerConfig = {
  roots: Root[];
  /** The server's own files inside a root (its data folder, database, `.env*`): never read, listed or written. */
  hidden: string[];
};

export type EntryKind = "file" | "dir" | "symlink" | "other";

/** A walk's entry: its path relative to the walked folder (POSIX), its kind and depth; `error` on an unreadable folder. */
export type WalkEntry = { relative: string; kind: EntryKind; depth: number; error?: string };

export type Request =
  | { op: "stat"; path: string }
  | { op: "readText"; path: string; maxBytes: number }
  | { op: "readLines"; path: string; first: number; limit: number }
  /** `before`: also answer the file's text as it was (when a text file of at most that many bytes), for a diff. */
  | { op: "writeText"; path: string; content: string; atomic?: boolean; before?: number }
  | { op: "remove"; path: string }
  | { op: "list"; path: string; max: number }
  | { op: "glob"; path: string; pattern: string; max: number }
  | { op: "grep"; path: string; pattern: string; include?: string; max: number; maxFileBytes: number };

export type StatResult = { kind: EntryKind | "missing"; size: number; mtimeMs: number };
export type ReadTextResult = { text: string } | { missing: true };
export type ReadLinesResult = { lines: string[]; total: number; more: boolean };
export type WriteResult = { existed: boolean; before?: string | null };
export type ListResult = { entries: WalkEntry[]; cut: boolean };
/** Matching files, newest first, at most `max` of them; `total` counts every match. */
export type GlobResult = { files: string[]; total: number };
/** `file` is relative to the searched folder ("" when it is the one file searched). */
export type GrepHit = { file: string; line: number; text: string };
export type GrepResult = { hits: GrepHit[] };

export type ResultOf<R extends Request> = R extends { op: "stat" }
  ? StatResult
  : R extends { op: "readText" }
    ? ReadTextResult
    : R extends { op: "readLines" }
      ? ReadLinesResult
      : R extends { op: "writeText" }
        ? WriteResult
        : R extends { op: "remove" }
          ? { removed: boolean }
          : R extends { op: "list" }
            ? ListResult
            : R extends { op: "glob" }
              ? GlobResult
              : GrepResult;

/**
 * Why an operation failed, as the tools word it: an errno code (ENOENT, EISDIR, ELOOP…), or one of the worker's
 * own: OUTSIDE (beneath none of its roots), READONLY (a write under a root it may only read), NOTFILE (not a
 * regular file), BINARY, TOOBIG, BADPATTERN.
 */
export type Failure = { code: string; message: string };

export type Answer = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: Failure };
