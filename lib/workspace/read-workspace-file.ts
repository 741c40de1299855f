import fs from "node:fs";
import { resolvePath } from "./resolve-path";

/** How much of a file the plan's file view shows. */
export const FILE_VIEW_LIMIT = 256 * 1024;

export type WorkspaceFile =
  | { status: "ok"; relative: string; text: string; truncated: boolean; size: number }
  | { status: "refused"; reason: string };

const OPEN = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (fs.constants.O_NOFOLLOW ?? 0);

/**
 * A file a plan names, read for a person to look at. The name comes from the plan (the model's text), so it is
 * resolved the way the kernel would (links and `..` followed) and refused unless it lands inside the workspace
 * the server checked; only a regular text file is read (opened without blocking or following a link swapped in).
 */
export async function readWorkspaceFile(workspace: string, requested: string): Promise<WorkspaceFile> {
  if (requested.trim() === "" || requested.includes("\0")) return { status: "refused", reason: "No file was named." };
  const resolved = await resolvePath(workspace, requested).catch(() => null);
  if (!resolved?.inside || resolved.relative === null)
    return { status: "refused", reason: `${requested} is not inside this workspace.` };
  const handle = await fs.promises.open(resolved.absolute, OPEN).catch(() => null);
  if (!handle) return { status: "refused", reason: `${requested} does not exist (yet) in the workspace.` };
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { status: "refused", reason: `${requested} is not a file.` };
    const buffer = Buffer.alloc(Math.min(st.size, FILE_VIEW_LIMIT));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return { status: "refused", reason: `${requested} is not a text file.` };
    return {
      status: "ok",
      relative: resolved.relative,
      text: bytes.toString("utf8"),
      truncated: st.size > FILE_VIEW_LIMIT,
      size: st.size,
    };
  } finally {
    await handle.close();
  }
}
