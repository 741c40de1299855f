import fs from "node:fs";
import path from "node:path";
import type { Root, WorkerConfig } from "./protocol";

/** An operation the worker refuses: a code, and what is wrong with the path, said of it ("is a directory."). */
export class WorkerError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const DIR_FLAGS = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;

/**
 * `/proc/self/fd/N/name` is openat(N, name): the kernel follows the descriptor's magic link to the folder it holds
 * and then looks `name` up there, so O_NOFOLLOW applies to that one component. Walking a path this way, one
 * component at a time from a root's descriptor, never passes through a link, whatever was swapped in after the
 * server resolved the path.
 */
export const at = (fd: number, name: string): string => `/proc/self/fd/${fd}/${name}`;

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root === "/" ? root : `${root}/`);
}

/** A path as the worker may use it: absolute, beneath a root (the deepest that holds it), never a hidden one. */
export type Place = { root: Root; parts: string[] };

export class Beneath {
  private readonly rootFds = new Map<string, number>();

  constructor(private readonly config: WorkerConfig) {}

  place(requested: string, write: boolean): Place {
    if (!path.isAbsolute(requested)) throw new WorkerError("OUTSIDE", "is not an absolute path.");
    // Normalised first: a `..` can only climb out of a root here, where it is refused, never on the disk.
    const p = path.resolve(requested);
    const root = this.config.roots.filter((r) => inside(r.path, p)).sort((a, b) => b.path.length - a.path.length)[0];
    if (root === undefined) throw new WorkerError("OUTSIDE", "is outside what this call may reach.");
    if (this.isHidden(p)) throw new WorkerError("ENOENT", "does not exist.");
    if (write && !root.write) throw new WorkerError("READONLY", "may not be changed by this call.");
    const rel = path.relative(root.path, p);
    return { root, parts: rel === "" ? [] : rel.split(path.sep) };
  }

  /**
   * Whether a server file hides this path: the deepest of the roots and the hidden paths that hold it decides, as
   * the mounts do (a data folder is hidden, the workspace inside it is bound again on top).
   */
  isHidden(p: string): boolean {
    const deepest = (paths: readonly string[]) =>
      paths.reduce((best, h) => (inside(h, p) && h.length > best ? h.length : best), -1);
    const hidden = deepest(this.config.hidden);
    return hidden >= 0 && hidden >= deepest(this.config.roots.map((r) => r.path));
  }

  private rootFd(root: Root): number {
    let fd = this.rootFds.get(root.path);
    if (fd === undefined) {
      fd = fs.openSync(root.path, DIR_FLAGS);
      this.rootFds.set(root.path, fd);
    }
    return fd;
  }

  /**
   * A descriptor of the folder holding the place's last component (the root itself for the root), opened one
   * component at a time without following links; `create` makes missing folders on the way. The caller closes it
   * unless it is the root's (see release).
   */
  parentOf(place: Place, create: boolean): { fd: number; name: string | null } {
    let fd = this.rootFd(place.root);
    const dirs = place.parts.slice(0, -1);
    for (const part of dirs) {
      let next: number;
      try {
        next = fs.openSync(at(fd, part), DIR_FLAGS);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // O_DIRECTORY answers ENOTDIR for a link before O_NOFOLLOW can say ELOOP: say what it is.
        if (code === "ENOTDIR" && fs.lstatSync(at(fd, part), { throwIfNoEntry: false })?.isSymbolicLink()) {
          this.release(fd);
          throw new WorkerError("ELOOP", "passes through a symbolic link.");
        }
        if (!create || code !== "ENOENT") {
          this.release(fd);
          throw error;
        }
        try {
          fs.mkdirSync(at(fd, part), 0o777);
        } catch (made) {
          if ((made as NodeJS.ErrnoException).code !== "EEXIST") {
            this.release(fd);
            throw made;
          }
        }
        next = fs.openSync(at(fd, part), DIR_FLAGS);
      }
      this.release(fd);
      fd = next;
    }
    return { fd, name: place.parts.at(-1) ?? null };
  }

  /** A descriptor of the place itself as a folder (the root's own for the root). */
  openDir(place: Place): number {
    const { fd, name } = this.parentOf(place, false);
    if (name === null) return fd;
    try {
      return fs.openSync(at(fd, name), DIR_FLAGS);
    } finally {
      this.release(fd);
    }
  }

  /** Closes a descriptor this walk opened; the roots' stay open for the worker's life. */
  release(fd: number): void {
    for (const kept of this.rootFds.values()) if (kept === fd) return;
    fs.closeSync(fd);
  }
}
