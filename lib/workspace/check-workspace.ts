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
  if (!fs.statSync(real).isDirectory())
    throw new AppError("workspace_not_allowed", `The workspace ${requested} is not a folder.`);
  const realRoots = roots.flatMap((r) => {
    try {
      return [fs.realpathSync(r)];
    } catch {
      return [];
    }
  });
  if (!realRoots.some((root) => inside(root, real))) {
    throw new AppError(
      "workspace_not_allowed",
      `The workspace ${requested} is outside the allowed roots (${roots.join(", ")}).`,
    );
  }
  // The roots folder holds every workspace (and, by default, sits in the data folder): it is not one itself.
  if (realRoots.includes(real))
    throw new AppError(
      "workspace_not_allowed",
      `The workspace ${requested} is an allowed root itself; choose a folder inside it.`,
    );
  return real;
}

/**
 * A session's workspace is checked again before every tool call: swapped for a link (or moved) since the
 * session started, it could send writes outside the roots. Null when it is still the folder that was checked.
 */
export function workspaceProblem(workspace: string, roots: string[]): string | null {
  try {
    if (checkWorkspace(workspace, roots) !== workspace)
      return `The workspace ${workspace} now resolves elsewhere (it was replaced by a link); nothing was run.`;
    return null;
  } catch (error) {
    return `${error instanceof Error ? error.message : String(error)} Nothing was run.`;
  }
}
