import { z } from "zod";
import { permissionPath } from "../workspace/resolve-path";
import { fsToolError, pathAsks, resolveForAsk, resolveForRun } from "./file-common";
import { assertReachable, onFiles, outsideOf } from "./file-view";
import { truncateOutput } from "./truncate";
import { MAX_OUTPUT_CHARS, ToolError, type ToolDef } from "./types";

export const DEFAULT_READ_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
const FOOTER_ROOM = 200;

const readInput = z.object({
  path: z.string().min(1).describe("File to read: relative to the workspace, or absolute."),
  offset: z.number().int().min(1).optional().describe("First line to show, 1-based (default 1)."),
  limit: z.number().int().min(1).optional().describe(`How many lines to show (default ${DEFAULT_READ_LIMIT}).`),
});
export type ReadInput = z.infer<typeof readInput>;

function formatLine(n: number, line: string): string {
  const cut =
    line.length > MAX_LINE_CHARS
      ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} characters]`
      : line;
  return `${String(n).padStart(6)}\t${cut}`;
}

export const readTool: ToolDef<ReadInput> = {
  name: "read",
  description: [
    "Read a text file. Output lines are numbered (`     1\\t…`); the numbers are not part of the file.",
    `Shows up to ${DEFAULT_READ_LIMIT} lines from offset (1-based); use offset and limit to page through long files.`,
    `Lines longer than ${MAX_LINE_CHARS} characters are cut. Folders are refused (use list) and so are binary files.`,
  ].join("\n"),
  permission: "read",
  rerun: "safe",
  inputSchema: readInput,

  async asks(input, ctx) {
    const resolved = await resolveForAsk(ctx, input.path);
    assertReachable(ctx, [resolved]);
    return pathAsks(resolved, "file", { permission: "read", readOnly: true });
  },

  async execute(input, ctx) {
    const resolved = await resolveForRun(ctx, input.path);
    const display = permissionPath(resolved);
    const first = input.offset ?? 1;
    const limit = input.limit ?? DEFAULT_READ_LIMIT;
    let window: { lines: string[]; total: number; more: boolean };
    try {
      window = await onFiles(ctx, { write: false, outside: outsideOf([resolved], "file") }, (files) =>
        files({ op: "readLines", path: resolved.absolute, first, limit }),
      );
    } catch (err) {
      if ((err as { code?: string }).code === "EISDIR")
        throw new ToolError(`${display} is a directory; use the list tool to see what it contains.`);
      throw fsToolError(err, display, "read");
    }
    if (window.total === 0) return { output: `(${display} is empty)`, metadata: { path: display, lines: 0 } };
    if (window.lines.length === 0) {
      throw new ToolError(`offset ${first} is past the end of ${display}, which has ${window.total} lines.`);
    }
    // Cut at whole lines rather than mid-text, so the footer can say exactly where to continue.
    const budget = MAX_OUTPUT_CHARS - FOOTER_ROOM;
    const shown: string[] = [];
    let used = 0;
    for (const [i, line] of window.lines.entries()) {
      const formatted = formatLine(first + i, line);
      if (shown.length > 0 && used + formatted.length + 1 > budget) break;
      shown.push(formatted);
      used += formatted.length + 1;
    }
    const last = first + shown.length - 1;
    const footer =
      shown.length < window.lines.length
        ? `\n\n(output limit reached: lines ${first}-${last} shown; continue with offset=${last + 1})`
        : window.more
          ? `\n\n(lines ${first}-${last} shown; more follow: continue with offset=${last + 1})`
          : `\n\n(end of file: ${window.total} lines)`;
    return { output: truncateOutput(shown.join("\n") + footer), metadata: { path: display, from: first, to: last } };
  },
};
