import { z } from "zod";
import { permissionPath } from "../workspace/resolve-path";
import { fsToolError, pathAsks, resolveForAsk, resolveForRun } from "./file-common";
import { truncateOutput } from "./truncate";
import { ToolError, type ToolDef } from "./types";
import { IGNORED_DIRS } from "../sandbox/confined-fs/walk-ops";
import { assertReachable, onFiles, outsideOf } from "./file-view";

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
    assertReachable(ctx, [resolved]);
    return pathAsks(resolved, "dir", { permission: "list", readOnly: true });
  },

  async execute(input, ctx) {
    const resolved = await resolveForRun(ctx, input.path ?? ".");
    const display = permissionPath(resolved);
    const lines: string[] = [display === "." ? "./" : `${display.replace(/\/$/, "")}/`];
    const { entries, cut } = await onFiles(
      ctx,
      { write: false, outside: outsideOf([resolved], "dir") },
      async (files) => {
        const stat = await files({ op: "stat", path: resolved.absolute });
        if (stat.kind === "missing") throw new ToolError(`File not found: ${display}`);
        if (stat.kind !== "dir") throw new ToolError(`${display} is not a folder; use the read tool for files.`);
        return files({ op: "list", path: resolved.absolute, max: MAX_LIST_ENTRIES });
      },
    ).catch((err: unknown) => {
      throw fsToolError(err, display, "read");
    });
    for (const entry of entries) {
      const name = entry.relative.slice(entry.relative.lastIndexOf("/") + 1);
      const suffix = entry.kind === "dir" ? "/" : entry.kind === "symlink" ? "@" : "";
      const note = entry.error === undefined ? "" : ` (unreadable: ${entry.error})`;
      lines.push(`${"  ".repeat(entry.depth + 1)}${name}${suffix}${note}`);
    }
    const count = entries.length;
    if (count === 0) lines.push("  (empty)");
    if (cut) lines.push(`\n(listing cut at ${MAX_LIST_ENTRIES} entries; list a subfolder to see more)`);
    return { output: truncateOutput(lines.join("\n")), metadata: { path: display, entries: count, truncated: cut } };
  },
};
