import fs from "node:fs/promises";
import { z } from "zod";
import { permissionPath } from "../workspace/resolve-path";
import { fsToolError, pathAsks, resolveForAsk, resolveForRun } from "./file-common";
import { truncateOutput } from "./truncate";
import { ToolError, type ToolDef } from "./types";
import { IGNORED_DIRS, walkTree } from "./walk-files";

export const MAX_LIST_ENTRIES = 500;

const listInput = z.object({
  path: z
    .string()
    .min(1)
    .optional()
    .describe("Folder to list: relative to the workspace, or absolute (default: the workspace)."),
});
export type ListInput = z.infer<typeof listInput>;

export const listTool: ToolDef<ListInput> = {
  name: "list",
  description: [
    "List a folder as an indented tree: folders first (with a trailing /), then files, each sorted by name.",
    `Shows at most ${MAX_LIST_ENTRIES} entries; list a subfolder to see more. Symlinks are marked with @ and not followed.`,
    `Skips ${[...IGNORED_DIRS].join(", ")}. Use glob to find files by name and grep to search their contents.`,
  ].join("\n"),
  permission: "list",
  rerun: "safe",
  inputSchema: listInput,

  async asks(input, ctx) {
    const resolved = await resolveForAsk(ctx, input.path ?? ".");
    return pathAsks(resolved, "dir", { permission: "list", readOnly: true });
  },

  async execute(input, ctx) {
    const resolved = await resolveForRun(ctx, input.path ?? ".");
    const display = permissionPath(resolved);
    try {
      const stat = await fs.lstat(resolved.absolute);
      if (!stat.isDirectory()) throw new ToolError(`${display} is not a folder; use the read tool for files.`);
    } catch (err) {
      throw fsToolError(err, display, "read");
    }
    const lines: string[] = [display === "." ? "./" : `${display.replace(/\/$/, "")}/`];
    let count = 0;
    let cut = false;
    try {
      for await (const entry of walkTree(resolved.absolute, ctx.signal)) {
        if (count === MAX_LIST_ENTRIES) {
          cut = true;
          break;
        }
        count++;
        const name = entry.relative.slice(entry.relative.lastIndexOf("/") + 1);
        const suffix = entry.kind === "dir" ? "/" : entry.kind === "symlink" ? "@" : "";
        const note = entry.error === undefined ? "" : ` (unreadable: ${entry.error})`;
        lines.push(`${"  ".repeat(entry.depth + 1)}${name}${suffix}${note}`);
      }
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      throw fsToolError(err, display, "read");
    }
    if (count === 0) lines.push("  (empty)");
    if (cut) lines.push(`\n(listing cut at ${MAX_LIST_ENTRIES} entries; list a subfolder to see more)`);
    return { output: truncateOutput(lines.join("\n")), metadata: { path: display, entries: count, truncated: cut } };
  },
};
