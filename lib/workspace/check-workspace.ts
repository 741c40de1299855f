import fs from "node:fs";
import path from "node:path";
import { AppError } from "../errors";

function inside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Resolves a requested workspace (realpath) and refuses anything outside the configured roots. */
export function checkWorkspace(requested: string, roots: string[]): string {
  let real: string;
  try {
    real = fs.realpathSync(requested);
  } catch {
    throw new AppError("workspace_not_allowed", `The workspace ${requested} does not exist.`);
  }
  if (!fs.statSync(real).isDirectory()) throw new AppError("workspace_not_allowed", `The workspace ${requested} is not a folder.`);
  const realRoots = roots.flatMap((r) => {
    try {
      return [fs.realpathSync(r)];
    } catch {
      return [];
    }
  });
  if (!realRoots.some((root) => inside(root, real))) {
    throw new AppError("workspace_not_allowed", `The workspace ${requested} is outside the allowed roots (${roots.join(", ")}).`);
  }
  return real;
}
