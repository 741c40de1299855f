import fs from "node:fs";
import path from "node:path";
import { heldFolder } from "../core/review-policy";

export type ShellHold = {
  /** Absolute folders bound read-only over the workspace for the command. */
  readOnly: string[];
  /** Held patterns no read-only folder can hold (no literal folder, or it does not exist as a real folder yet). */
  loose: string[];
};

/**
 * How a shell command is held to the last approval. The OS holds what it can (an existing folder, never through a
 * symlink, bound read-only); for what it cannot, a command that may write asks a person.
 */
export function shellHold(held: readonly string[] | undefined, workspace: string): ShellHold {
  const readOnly = new Set<string>();
  const loose: string[] = [];
  for (const pattern of held ?? []) {
    const folder = heldFolder(pattern);
    const absolute = folder === null ? null : path.join(workspace, folder);
    if (absolute !== null && isRealFolder(absolute)) readOnly.add(absolute);
    else loose.push(pattern);
  }
  return { readOnly: [...readOnly], loose };
}

function isRealFolder(p: string): boolean {
  try {
    return fs.realpathSync(p) === p && fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
