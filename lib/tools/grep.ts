import { z } from "zod";
import { IGNORED_DIRS } from "../sandbox/confined-fs/walk-ops";
import type { GrepHit } from "../sandbox/confined-fs/protocol";
import { permissionPath } from "../workspace/resolve-path";
import { fsToolError, resolveForAsk, resolveForRun } from "./file-common";
import { assertReachable, onFiles } from "./file-view";
import { checkSearchGlob, displayPath, searchAsks, searchKind } from "./glob";
import { truncateOutput } from "./truncate";
import { ToolError, type ToolDef } from "./types";

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
 * The pattern checked before anyone is asked: a bad one is the model's to fix, with RE2's own words. RE2 (a wasm
 * module of several MB) is loaded by the first search, not by every server that never runs one.
 */
async function checkRegex(pattern: string): Promise<void> {
  const { compileRegex } = await import("../sandbox/confined-fs/search-ops");
  try {
    compileRegex(pattern);
  } catch (err) {
    throw new ToolError(err instanceof Error ? err.message : String(err));
  }
}

function format(hits: GrepHit[]): string {
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
    await checkRegex(input.pattern);
    if (input.include !== undefined) checkSearchGlob(input.include, "include glob");
    const resolved = await resolveForAsk(ctx, input.path ?? ".");
    assertReachable(ctx, [resolved]);
    return searchAsks("grep", input.pattern, resolved);
  },

  async execute(input, ctx) {
    if (input.include !== undefined) checkSearchGlob(input.include, "include glob");
    const resolved = await resolveForRun(ctx, input.path ?? ".");
    const display = permissionPath(resolved);
    const outside = resolved.inside ? [] : [{ path: resolved, kind: searchKind(resolved) }];
    // One past the limit tells "exactly 200" apart from "more than 200".
    const found = await onFiles(ctx, { write: false, outside }, (files) =>
      files({
        op: "grep",
        path: resolved.absolute,
        pattern: input.pattern,
        ...(input.include === undefined ? {} : { include: input.include }),
        max: MAX_GREP_MATCHES + 1,
        maxFileBytes: MAX_GREP_FILE_BYTES,
      }),
    ).catch((err: unknown) => {
      throw fsToolError(err, display, "read");
    });
    const hits = found.hits.map((h) => ({
      ...h,
      file: h.file === "" ? display : displayPath(resolved, `${resolved.absolute}/${h.file}`),
    }));
    if (hits.length === 0) return { output: "No matches found.", metadata: { matches: 0 } };
    const more = hits.length > MAX_GREP_MATCHES;
    const shown = hits.slice(0, MAX_GREP_MATCHES);
    const note = more ? `\n\n(showing the first ${MAX_GREP_MATCHES} matches; narrow the pattern, path or include)` : "";
    return { output: truncateOutput(format(shown) + note), metadata: { matches: shown.length, truncated: more } };
  },
};
