import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { externalDirectoryAsk, permissionPath, type ResolvedPath } from "../workspace/resolve-path";
import { fsToolError, resolveForAsk, resolveForRun } from "./file-common";
import { truncateOutput } from "./truncate";
import { ToolError, type PermissionAsk, type ToolContext, type ToolDef } from "./types";
import { IGNORED_DIRS } from "../sandbox/confined-fs/walk-ops";
import { assertReachable, onFiles } from "./file-view";

export const MAX_GLOB_RESULTS = 200;

const globInput = z.object({
  pattern: z.string().min(1).max(1000).describe('Glob to match, e.g. "**/*.ts", "src/**/{a,b}.tsx", "*.md".'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe("Folder to search: relative to the workspace, or absolute (default: the workspace)."),
});
export type GlobInput = z.infer<typeof globInput>;

/** Relative patterns only: the walk never yields `..` or absolute paths, so such a pattern could only silently match nothing. */
export function checkSearchGlob(pattern: string, field: string): void {
  if (pattern.includes("\0")) throw new ToolError(`The ${field} contains a NUL byte.`);
  if (path.isAbsolute(pattern) || pattern.split("/").includes("..")) {
    throw new ToolError(`The ${field} must be relative to the searched folder; put the folder in "path" instead.`);
  }
}

/**
 * A searched path outside the workspace is asked for as a folder (the folder itself, or the one holding a file):
 * what a person allows is exactly what the call's view then shows.
 */
export function searchKind(resolved: ResolvedPath): "file" | "dir" {
  if (resolved.inside) return "dir";
  return fs.statSync(resolved.absolute, { throwIfNoEntry: false })?.isFile() === true ? "file" : "dir";
}

/** Shared by glob and grep: the search folder's external_directory ask plus the tool's own ask on its pattern. */
export function searchAsks(permission: string, pattern: string, resolved: ResolvedPath): PermissionAsk[] {
  const own: PermissionAsk = {
    permission,
    patterns: [pattern],
    always: [pattern],
    readOnly: true,
    insideWorkspace: resolved.inside,
  };
  own.metadata = { pattern, path: permissionPath(resolved) };
  return resolved.inside ? [own] : [externalDirectoryAsk(resolved, searchKind(resolved)), own];
}

/** How a search result is named: workspace-relative when inside, absolute otherwise. */
export function displayPath(base: ResolvedPath, absolute: string): string {
  if (!base.inside) return absolute;
  const rel = path.relative(base.absolute, absolute).split(path.sep).join("/");
  const prefix = base.relative ?? ".";
  return prefix === "." ? rel : `${prefix}/${rel}`;
}

export const globTool: ToolDef<GlobInput> = {
  name: "glob",
  description: [
    "Find files by name. Supports * (within a folder), ** (any folders), ?, [abc], {a,b}.",
    'A pattern without "/" matches file names at any depth ("*.ts" finds every .ts file); with "/" it matches the path from the searched folder.',
    `Returns up to ${MAX_GLOB_RESULTS} files, newest first. Skips ${[...IGNORED_DIRS].join(", ")} and does not follow symlinks.`,
  ].join("\n"),
  permission: "glob",
  rerun: "safe",
  inputSchema: globInput,

  async asks(input, ctx) {
    checkSearchGlob(input.pattern, "pattern");
    const resolved = await resolveForAsk(ctx, input.path ?? ".");
    assertReachable(ctx, [resolved]);
    return searchAsks("glob", input.pattern, resolved);
  },

  async execute(input, ctx) {
    checkSearchGlob(input.pattern, "pattern");
    const resolved = await resolveForRun(ctx, input.path ?? ".");
    const display = permissionPath(resolved);
    const outside = resolved.inside ? [] : [{ path: resolved, kind: searchKind(resolved) }];
    const { files, total } = await onFiles(ctx, { write: false, outside }, async (run) => {
      const stat = await run({ op: "stat", path: resolved.absolute });
      if (stat.kind === "missing") throw new ToolError(`File not found: ${display}`);
      if (stat.kind !== "dir") throw new ToolError(`${display} is not a folder.`);
      return run({ op: "glob", path: resolved.absolute, pattern: input.pattern, max: MAX_GLOB_RESULTS });
    }).catch((err: unknown) => {
      throw fsToolError(err, display, "read");
    });
    if (total === 0) return { output: "No files found.", metadata: { count: 0 } };
    const shown = files.map((f) => displayPath(resolved, path.join(resolved.absolute, f)));
    const note =
      total > MAX_GLOB_RESULTS
        ? `\n\n(${total} files matched; showing the ${MAX_GLOB_RESULTS} newest. Narrow the pattern or the path.)`
        : "";
    return {
      output: truncateOutput(shown.join("\n") + note),
      metadata: { count: total, truncated: total > MAX_GLOB_RESULTS },
    };
  },
};
