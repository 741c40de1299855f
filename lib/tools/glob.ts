import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { externalDirectoryAsk, permissionPath, type ResolvedPath } from "../workspace/resolve-path";
import { fsToolError, resolveForAsk, resolveForRun } from "./file-common";
import { compileGlob } from "./glob-match";
import { truncateOutput } from "./truncate";
import { ToolError, type PermissionAsk, type ToolContext, type ToolDef } from "./types";
import { IGNORED_DIRS, walkTree } from "./walk-files";

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
  return resolved.inside ? [own] : [externalDirectoryAsk(resolved, "dir"), own];
}

/** How a search result is named: workspace-relative when inside, absolute otherwise. */
export function displayPath(base: ResolvedPath, absolute: string): string {
  if (!base.inside) return absolute;
  const rel = path.relative(base.absolute, absolute).split(path.sep).join("/");
  const prefix = base.relative ?? ".";
  return prefix === "." ? rel : `${prefix}/${rel}`;
}

async function searchFolder(resolved: ResolvedPath, ctx: ToolContext): Promise<void> {
  try {
    const stat = await fs.stat(resolved.absolute);
    if (!stat.isDirectory()) throw new ToolError(`${permissionPath(resolved)} is not a folder.`);
  } catch (err) {
    throw fsToolError(err, permissionPath(resolved), "read");
  }
  ctx.signal.throwIfAborted();
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
    return searchAsks("glob", input.pattern, resolved);
  },

  async execute(input, ctx) {
    checkSearchGlob(input.pattern, "pattern");
    const resolved = await resolveForRun(ctx, input.path ?? ".");
    await searchFolder(resolved, ctx);
    const matches = compileGlob(input.pattern);
    const found: { name: string; mtime: number }[] = [];
    for await (const entry of walkTree(resolved.absolute, ctx.signal)) {
      if (entry.kind !== "file" || !matches(entry.relative)) continue;
      const stat = await fs.lstat(entry.absolute).catch(() => null);
      if (stat) found.push({ name: displayPath(resolved, entry.absolute), mtime: stat.mtimeMs });
    }
    if (found.length === 0) return { output: "No files found.", metadata: { count: 0 } };
    found.sort((a, b) => b.mtime - a.mtime || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const shown = found.slice(0, MAX_GLOB_RESULTS).map((f) => f.name);
    const note =
      found.length > MAX_GLOB_RESULTS
        ? `\n\n(${found.length} files matched; showing the ${MAX_GLOB_RESULTS} newest. Narrow the pattern or the path.)`
        : "";
    return {
      output: truncateOutput(shown.join("\n") + note),
      metadata: { count: found.length, truncated: found.length > MAX_GLOB_RESULTS },
    };
  },
};
