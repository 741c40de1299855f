import { readUntrustedFile } from "./read-untrusted-file";
import { resolvePath } from "./resolve-path";

/** How much of a file the plan's file view shows. */
export const FILE_VIEW_LIMIT = 256 * 1024;

export type WorkspaceFile =
  | { status: "ok"; relative: string; text: string; truncated: boolean; size: number }
  | { status: "refused"; reason: string };

/**
 * A file a plan names, read for a person to look at. The name comes from the plan (the model's text), so it is
 * resolved the way the kernel would (links and `..` followed) and refused unless it lands inside the workspace
 * the server checked; then read as every workspace file is (lib/workspace/read-untrusted-file.ts): a regular
 * file only, opened without blocking or following a link swapped in, its first 256 KiB shown.
 */
export async function readWorkspaceFile(workspace: string, requested: string): Promise<WorkspaceFile> {
  if (requested.trim() === "" || requested.includes("\0")) return { status: "refused", reason: "No file was named." };
  const resolved = await resolvePath(workspace, requested).catch(() => null);
  if (!resolved?.inside || resolved.relative === null)
    return { status: "refused", reason: `${requested} is not inside this workspace.` };
  const got = readUntrustedFile(workspace, resolved.relative, {
    display: requested,
    limit: FILE_VIEW_LIMIT,
    truncate: true,
  });
  if (got.status === "missing")
    return { status: "refused", reason: `${requested} does not exist (yet) in the workspace.` };
  if (got.status === "refused") return { status: "refused", reason: `${got.reason}.` };
  if (got.bytes.includes(0)) return { status: "refused", reason: `${requested} is not a text file.` };
  return {
    status: "ok",
    relative: resolved.relative,
    text: got.bytes.toString("utf8"),
    truncated: got.truncated,
    size: got.size,
  };
}
