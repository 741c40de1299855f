// Which files are Kilo's plan files, by what is on disk, not by the text of a path: a repository may plant
// `.kilo/plans/notes.md -> ../../src/app.ts` (or link `.kilo` or `.kilo/plans` itself), and Kilo's plan agent, allowed
// to write its plan files, would then write through the link. Shared by the plugin (which refuses such a write) and
// the hook (which reads only a real plan file).
import fs from "node:fs";
import path from "node:path";
import { KILO_PLAN_DIRS } from "../lib/external/kilo-hook";

const real = (p: string): string | null => {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
};

/** The real plan folders of these project roots (Kilo's worktree and its folder), as far as they exist. */
export function realPlanDirs(roots: string[]): string[] {
  const dirs = new Set<string>();
  for (const root of roots) {
    const r = real(root);
    if (r) for (const rel of KILO_PLAN_DIRS) dirs.add(path.join(r, rel));
  }
  return [...dirs];
}

/**
 * Whether `file` is a plan file in one of these folders: a markdown name whose folder, followed to its real place,
 * is the plan folder itself, and which is absent or a regular file with no other name (not a link, not hard-linked).
 */
export function isRealPlanFile(file: string, planDirs: string[]): boolean {
  if (!file.endsWith(".md")) return false;
  const dir = real(path.dirname(file));
  if (!dir || !planDirs.includes(dir)) return false;
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  return !st || (st.isFile() && st.nlink === 1);
}
