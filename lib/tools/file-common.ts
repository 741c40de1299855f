import { isHeld } from "../review/rules/review-policy";
import { createTwoFilesPatch } from "diff";
import {
  assertJudgedPaths,
  externalDirectoryAsk,
  permissionPath,
  rememberJudgedPaths,
  resolvePath,
  type ResolvedPath,
} from "../workspace/resolve-path";
import { planFileUsable } from "../plan/plan-file";
import type { Files } from "./file-view";
import { ToolError, type PermissionAsk, type ToolContext } from "./types";

/** edit and apply_patch hold whole files in memory (twice, with the diff); past this a shell tool fits better. */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;
// Myers diff is quadratic in the worst case; a permission card does not need a diff of megabytes.
const MAX_DIFF_INPUT_CHARS = 1_000_000;

function code(err: unknown): string | undefined {
  const c = (err as NodeJS.ErrnoException | null)?.code;
  return typeof c === "string" ? c : undefined;
}

/** Turns an fs or file worker error into the sentence the model reads (ToolErrors pass through). */
export function fsToolError(err: unknown, display: string, op: "read" | "write"): ToolError {
  if (err instanceof ToolError) return err;
  const said = err instanceof Error ? err.message : String(err);
  switch (code(err)) {
    case "ENOENT":
      return new ToolError(`File not found: ${display}`);
    case "ENOTDIR":
      return op === "read"
        ? new ToolError(`File not found: ${display}`)
        : new ToolError(`A parent of ${display} is a file, not a folder.`);
    case "EISDIR":
      return new ToolError(`${display} is a directory.`);
    case "ELOOP":
      // Only reachable when a symlink appeared after the path was resolved: no component is opened through one.
      return new ToolError(`${display} became a symbolic link while the tool ran; run it again.`);
    case "ENXIO":
    case "NOTFILE":
      return new ToolError(`${display} is not a regular file.`);
    case "EACCES":
    case "EPERM":
    case "EROFS":
    case "READONLY":
      return new ToolError(`Permission denied: ${display}`);
    case "OUTSIDE":
      return new ToolError(
        `${display} is outside what this call may reach: the workspace, and folders a person allowed.`,
      );
    case "BINARY":
      return new ToolError(
        op === "read"
          ? `${display} is a binary file; it cannot be shown as text.`
          : `${display} is a binary file; it cannot be edited as text.`,
      );
    case "TOOBIG":
      return new ToolError(`${display} ${said}`);
    case "BADPATTERN":
    case "EWORKER":
    case "NOWORKER":
      return new ToolError(said);
    default:
      return new ToolError(`Cannot ${op} ${display}: ${code(err) ?? said}`);
  }
}

/** The current text of a file, or null when it does not exist. Refuses folders, binaries and huge files. */
export async function readTextIfExists(files: Files, absolute: string, display: string): Promise<string | null> {
  try {
    const read = await files({ op: "readText", path: absolute, maxBytes: MAX_EDIT_BYTES });
    return "text" in read ? read.text : null;
  } catch (err) {
    throw fsToolError(err, display, "read");
  }
}

/**
 * The path a call names, resolved for its permission question; the real path is remembered so the run can
 * refuse if a symlink or folder moved in between (see assertJudgedPaths).
 */
export async function resolveForAsk(ctx: ToolContext, requested: string): Promise<ResolvedPath> {
  const resolved = await resolvePath(ctx.workspace, requested);
  rememberJudgedPaths(ctx.callId, [resolved.absolute]);
  return resolved;
}

/** The same path resolved again when the call runs: it must still be what the permission was given for. */
export async function resolveForRun(ctx: ToolContext, requested: string): Promise<ResolvedPath> {
  const resolved = await resolvePath(ctx.workspace, requested);
  assertJudgedPaths(ctx.callId, [resolved.absolute]);
  return resolved;
}

/**
 * The session's plan file when it can be written as such: its folders are real folders and it is not a link.
 * A link planted at the plan path (to a source file) is never followed: the write is then judged, and refused
 * in plan mode, like any other.
 */
export async function realPlanFile(ctx: ToolContext): Promise<string | null> {
  if (ctx.planFile === null) return null;
  return planFileUsable(ctx.workspace, ctx.planFile) ? ctx.planFile : null;
}

/**
 * Writes an allowed file, creating its folders; the plan file as a fresh file (a temporary file and a rename),
 * never through a link.
 */
export async function writeAllowed(
  files: Files,
  absolute: string,
  content: string,
  display: string,
  planFile: string | null,
): Promise<void> {
  try {
    await files({ op: "writeText", path: absolute, content, atomic: absolute === planFile });
  } catch (err) {
    throw fsToolError(err, display, "write");
  }
}

/** The gate should already have denied this; a read-only call must not write even if it was misconfigured. */
export function assertMayWrite(ctx: ToolContext, resolved: ResolvedPath, planFile: string | null): void {
  if (ctx.readOnly && resolved.absolute !== planFile) {
    throw new ToolError(
      `This call is read-only (plan mode or a read-only agent): only the plan file may be written, not ${permissionPath(resolved)}.`,
    );
  }
}

export function unifiedDiff(name: string, before: string, after: string): string {
  if (before.length + after.length > MAX_DIFF_INPUT_CHARS) {
    return `(too large to diff: ${before.length} → ${after.length} characters)`;
  }
  return createTwoFilesPatch(name, name, before, after, undefined, undefined, { context: 3 });
}

export function countLines(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

/** "Always" for a file saves exactly that path (a name with `*` in it stays literal). */
export function exactPathOptions(paths: readonly string[]): NonNullable<PermissionAsk["alwaysOptions"]> {
  return paths.map((p) => ({ pattern: p, options: [{ rule: p, exact: true, words: `\`${p}\`` }] }));
}

/**
 * Which written paths always ask a person: control files, and files under a pattern the last approval left held
 * (its reviewers did not approve the plan). The plan file is the agent's own and never one.
 */
export function controlPatterns(
  paths: readonly ResolvedPath[],
  planFile: string | null,
  held: readonly string[] = [],
): string[] {
  return paths
    .filter(
      (p) =>
        p.relative !== null && p.absolute !== planFile && (p.control || (held.length > 0 && isHeld(p.relative, held))),
    )
    .map(permissionPath);
}

/** The external_directory ask (when outside) followed by the tool's own ask for one path. */
export function pathAsks(
  resolved: ResolvedPath,
  kind: "file" | "dir",
  main: Omit<PermissionAsk, "patterns" | "always" | "insideWorkspace">,
): PermissionAsk[] {
  const target = permissionPath(resolved);
  const own: PermissionAsk = {
    ...main,
    patterns: [target],
    always: [target],
    alwaysOptions: exactPathOptions([target]),
    insideWorkspace: resolved.inside,
  };
  return resolved.inside ? [own] : [externalDirectoryAsk(resolved, kind), own];
}
