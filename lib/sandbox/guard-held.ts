import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isInside } from "../workspace/read-untrusted-file";
import { quarantine } from "./guard-controls";
import type { HeldLocations } from "./held-locations";

/** What holds a review policy's paths while one command that may write runs (issue 41), and the check after it. */
export type HeldPathGuard = {
  /** Held locations mounted read-only (a mount point cannot be written, removed, renamed or replaced). */
  protect: string[];
  /** The folders above them, bound onto themselves: a parent cannot be renamed away and rebuilt around the mount. */
  pin: string[];
  /**
   * Called once the command has ended: whatever now stands at a held location that is not what stood there (or
   * anything at one that was empty) is moved to the quarantine; returns those paths, workspace-relative.
   */
  release: () => string[];
};

function identity(p: string): string | null {
  try {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    return st ? `${st.dev}:${st.ino}` : null;
  } catch {
    return null;
  }
}

export function holdHeldPaths(workspace: string, held: HeldLocations, quarantineRoot: string): HeldPathGuard {
  const pin = new Set<string>();
  for (const location of [...held.readOnly, ...held.watch]) {
    for (let dir = path.dirname(location); dir !== workspace && isInside(workspace, dir); dir = path.dirname(dir))
      if (identity(dir) !== null) pin.add(dir);
  }
  // Identities as the command starts: a held location later found to be another file was put there by it.
  const before = new Map(held.readOnly.map((p) => [p, identity(p)]));
  let released = false;
  const release = (): string[] => {
    if (released) return [];
    released = true;
    const written: string[] = [];
    for (const [p, id] of before) if (identity(p) !== id) written.push(p);
    for (const p of held.watch) if (identity(p) !== null) written.push(p);
    const present = written.filter((p) => identity(p) !== null);
    if (present.length > 0) {
      const stamp = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBytes(3).toString("hex")}`;
      for (const p of present) quarantine(workspace, p, path.join(quarantineRoot, stamp));
    }
    return written.map((p) => path.relative(workspace, p));
  };
  return { protect: [...held.readOnly], pin: [...pin], release };
}
