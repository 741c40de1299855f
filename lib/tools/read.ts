import fs from "node:fs/promises";
import readline from "node:readline";
import { z } from "zod";
import { permissionPath } from "../workspace/resolve-path";
import { READ_FLAGS, fsToolError, pathAsks, resolveForAsk, resolveForRun } from "./file-common";
import { truncateOutput } from "./truncate";
import { MAX_OUTPUT_CHARS, ToolError, type ToolDef } from "./types";
import { looksBinary } from "./walk-files";

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

type Window = { lines: string[]; total: number; more: boolean };

/** Streams the file so a line range of a huge log costs only the lines up to it. */
async function readWindow(handle: fs.FileHandle, first: number, limit: number): Promise<Window> {
  const stream = handle.createReadStream({ start: 0, autoClose: false, encoding: "utf8" });
  const reader = readline.createInterface({ input: stream, crlfDelay: Infinity });
  const lines: string[] = [];
  let n = 0;
  let more = false;
  try {
    for await (const line of reader) {
      n++;
      if (n < first) continue;
      if (lines.length === limit) {
        more = true;
        break;
      }
      lines.push(line);
    }
  } finally {
    reader.close();
    stream.destroy();
  }
  return { lines, total: n, more };
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
    return pathAsks(resolved, "file", { permission: "read", readOnly: true });
  },

  async execute(input, ctx) {
    const resolved = await resolveForRun(ctx, input.path);
    const display = permissionPath(resolved);
    const first = input.offset ?? 1;
    const limit = input.limit ?? DEFAULT_READ_LIMIT;
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(resolved.absolute, READ_FLAGS);
    } catch (err) {
      throw fsToolError(err, display, "read");
    }
    let window: Window;
    try {
      const stat = await handle.stat();
      if (stat.isDirectory())
        throw new ToolError(`${display} is a directory; use the list tool to see what it contains.`);
      // A FIFO or device would block or never end.
      if (!stat.isFile()) throw new ToolError(`${display} is not a regular file.`);
      const head = Buffer.alloc(Math.min(8192, stat.size));
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      if (looksBinary(head.subarray(0, bytesRead)))
        throw new ToolError(`${display} is a binary file; it cannot be shown as text.`);
      window = await readWindow(handle, first, limit);
    } catch (err) {
      throw fsToolError(err, display, "read");
    } finally {
      await handle.close();
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
