import fs from "node:fs";
import path from "node:path";
import { heldFolder } from "../review/rules/review-policy";

/**
 * Where a shell command meets the paths a review policy holds (issue 41): what the OS can hold, and what only the
 * paths' owners can. A command runs with every held location it was not released from read-only, whoever or
 * whatever allowed it (asWritten, bypassPermissions): only an answer by one of a path's owners releases it.
 */
export type HeldLocations = {
  /** Held locations that exist (a real folder or file, no link on the way): bound read-only over the workspace. */
  readOnly: string[];
  /** Held locations that do not exist yet, below real folders: whatever appears there is quarantined after. */
  watch: string[];
  /**
   * Held patterns no location can hold (no literal folder, a link or another kind of file on the way, or no sandbox
   * on this machine): a command that may write asks their owners, every time.
   */
  loose: string[];
};

function lstat(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** An existing real location, one still to come below real folders, or neither (a link or a file on the way). */
function kindOf(workspace: string, location: string): "exists" | "missing" | "loose" {
  let at = workspace;
  const parts = path.relative(workspace, location).split(path.sep);
  for (const [i, part] of parts.entries()) {
    at = path.join(at, part);
    const st = lstat(at);
    if (st === null) return "missing";
    if (st.isSymbolicLink()) return "loose";
    const last = i === parts.length - 1;
    if (!last && !st.isDirectory()) return "loose";
    if (last && !st.isDirectory() && !st.isFile()) return "loose";
  }
  return "exists";
}

/**
 * How a shell command is held. `released`: the patterns an owner's answer released for this very command (they
 * stay writable). Without a sandbox nothing can be bound, so every held pattern is loose.
 */
export function heldLocations(
  held: readonly string[] | undefined,
  workspace: string,
  opts: { sandboxed: boolean; released?: readonly string[] },
): HeldLocations {
  const out: HeldLocations = { readOnly: [], watch: [], loose: [] };
  for (const pattern of held ?? []) {
    if (opts.released?.includes(pattern)) continue;
    const folder = opts.sandboxed ? heldFolder(pattern) : null;
    const location = folder === null ? null : path.join(workspace, folder);
    const kind = location === null ? "loose" : kindOf(workspace, location);
    if (location === null || kind === "loose") out.loose.push(pattern);
    else (kind === "exists" ? out.readOnly : out.watch).push(location);
  }
  const unique = (list: string[]) => [...new Set(list)];
  return { readOnly: unique(out.readOnly), watch: unique(out.watch), loose: unique(out.loose) };
}

/**
 * The held patterns a command's text names (the last name of a held location, or the pattern itself): its ask goes
 * to their owners, who alone may let it write there. Naming is only how the question finds its person; what holds a
 * command that names nothing is the read-only mount and the check after it.
 */
export function namedHeld(command: string, held: readonly string[] | undefined): string[] {
  return (held ?? []).filter((pattern) => {
    const folder = heldFolder(pattern);
    const name = folder === null ? pattern.trim() : path.basename(folder);
    return name.length > 0 && command.includes(name);
  });
}
