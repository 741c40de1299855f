import fs from "node:fs/promises";
import { RE2 } from "re2-wasm";
import { z } from "zod";
import { permissionPath, type ResolvedPath } from "../workspace/resolve-path";
import { READ_FLAGS, fsToolError, resolveForAsk, resolveForRun } from "./file-common";
import { checkSearchGlob, displayPath, searchAsks } from "./glob";
import { compileGlob, type GlobMatcher } from "./glob-match";
import { truncateOutput } from "./truncate";
import { ToolError, type ToolContext, type ToolDef } from "./types";
import { IGNORED_DIRS, looksBinary, walkTree } from "./walk-files";

export const MAX_GREP_MATCHES = 200;
export const MAX_GREP_FILE_BYTES = 1024 * 1024;
const MAX_MATCH_LINE_CHARS = 500;

const grepInput = z.object({
  pattern: z
    .string()
    .min(1)
    .max(1000)
    .describe(
      'Regular expression to search for (RE2 syntax, as in ripgrep: no look-around or backreferences), e.g. "function\\s+\\w+".',
    ),
  path: z
    .string()
    .min(1)
    .optional()
    .describe("Folder or file to search: relative to the workspace, or absolute (default: the workspace)."),
  include: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('Only search files whose name matches this glob, e.g. "*.ts" or "*.{ts,tsx}".'),
});
export type GrepInput = z.infer<typeof grepInput>;

/**
 * The pattern compiled by RE2 (linear time in the text, whatever the pattern): a model-written regex that
 * would backtrack exponentially in JavaScript cannot stall the server's only thread.
 */
function compileRegex(pattern: string): RE2 {
  try {
    return new RE2(pattern, "u");
  } catch (err) {
    throw new ToolError(
      `Invalid regular expression (RE2 syntax: no look-around or backreferences): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

type Matcher = (lines: string[], max: number) => number[];

function lineMatcher(source: string): Matcher {
  const re = compileRegex(source);
  return (lines, max) => {
    const hits: number[] = [];
    for (let i = 0; i < lines.length && hits.length < max; i++) if (re.test(lines[i] ?? "")) hits.push(i);
    return hits;
  };
}

/** Text of a searchable file, or null for files grep skips (too big, binary, unreadable, replaced by a symlink). */
async function searchableText(absolute: string): Promise<string | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(absolute, READ_FLAGS);
  } catch {
    return null;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_GREP_FILE_BYTES) return null;
    const buffer = await handle.readFile();
    return looksBinary(buffer) ? null : buffer.toString("utf8");
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

type Hit = { file: string; line: number; text: string };

async function* candidateFiles(resolved: ResolvedPath, include: GlobMatcher | null, ctx: ToolContext) {
  const stat = await fs.stat(resolved.absolute).catch((err: unknown) => {
    throw fsToolError(err, permissionPath(resolved), "read");
  });
  if (stat.isFile()) {
    yield { absolute: resolved.absolute, display: permissionPath(resolved) };
    return;
  }
  if (!stat.isDirectory()) throw new ToolError(`${permissionPath(resolved)} is neither a file nor a folder.`);
  for await (const entry of walkTree(resolved.absolute, ctx.signal)) {
    if (entry.kind !== "file" || (include !== null && !include(entry.relative))) continue;
    yield { absolute: entry.absolute, display: displayPath(resolved, entry.absolute) };
  }
}

function format(hits: Hit[]): string {
  const groups: string[] = [];
  let current = "";
  let lines: string[] = [];
  for (const hit of hits) {
    if (hit.file !== current && lines.length > 0) {
      groups.push(lines.join("\n"));
      lines = [];
    }
    current = hit.file;
    const text =
      hit.text.length > MAX_MATCH_LINE_CHARS ? `${hit.text.slice(0, MAX_MATCH_LINE_CHARS)}… [line cut]` : hit.text;
    lines.push(`${hit.file}:${hit.line}: ${text}`);
  }
  if (lines.length > 0) groups.push(lines.join("\n"));
  return groups.join("\n\n");
}

export const grepTool: ToolDef<GrepInput> = {
  name: "grep",
  description: [
    "Search file contents with a regular expression (RE2 syntax, as in ripgrep), line by line. Output: `path:line: text`, grouped by file.",
    'Narrow with "path" (a folder or one file) and "include" (a glob of file names such as "*.ts").',
    `At most ${MAX_GREP_MATCHES} matches. Skips ${[...IGNORED_DIRS].join(", ")}, binary files, files over 1 MB and symlinks.`,
  ].join("\n"),
  permission: "grep",
  rerun: "safe",
  inputSchema: grepInput,

  async asks(input, ctx) {
    compileRegex(input.pattern);
    if (input.include !== undefined) checkSearchGlob(input.include, "include glob");
    const resolved = await resolveForAsk(ctx, input.path ?? ".");
    return searchAsks("grep", input.pattern, resolved);
  },

  async execute(input, ctx) {
    if (input.include !== undefined) checkSearchGlob(input.include, "include glob");
    const resolved = await resolveForRun(ctx, input.path ?? ".");
    const include = input.include === undefined ? null : compileGlob(input.include);
    const match = lineMatcher(input.pattern);
    const hits: Hit[] = [];
    // One past the limit tells "exactly 200" apart from "more than 200".
    for await (const file of candidateFiles(resolved, include, ctx)) {
      const text = await searchableText(file.absolute);
      if (text === null) continue;
      const lines = text.split(/\r?\n/);
      // The final newline ends the last line; it does not start an empty one that "^$" could match.
      if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
      for (const i of match(lines, MAX_GREP_MATCHES + 1 - hits.length)) {
        hits.push({ file: file.display, line: i + 1, text: lines[i] ?? "" });
      }
      if (hits.length > MAX_GREP_MATCHES) break;
    }
    if (hits.length === 0) return { output: "No matches found.", metadata: { matches: 0 } };
    const more = hits.length > MAX_GREP_MATCHES;
    const shown = hits.slice(0, MAX_GREP_MATCHES);
    const note = more ? `\n\n(showing the first ${MAX_GREP_MATCHES} matches; narrow the pattern, path or include)` : "";
    return { output: truncateOutput(format(shown) + note), metadata: { matches: shown.length, truncated: more } };
  },
};
