import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ToolError, type PermissionAsk } from "../session/log/tool-types";
import { controlTargets, isControlPath, underTarget } from "./control-paths";

export type ResolvedPath = {
  /** Real location on disk: symlinks and `..` already resolved, so this is what the gate judges and execute touches. */
  absolute: string;
  /** Workspace-relative POSIX path ("." for the root) when inside, else null. */
  relative: string | null;
  inside: boolean;
  /**
   * A control file by the path as written or by where it leads: `.claude/settings.json` through a link
   * `.claude → src` writes src/settings.json, which the agent then reads as its settings.
   */
  control: boolean;
};

// Same bound the kernel uses (MAXSYMLINKS), so a symlink loop fails here rather than spinning.
const MAX_SYMLINKS = 40;

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function describeError(err: unknown): string {
  return (err as NodeJS.ErrnoException | null)?.code ?? (err instanceof Error ? err.message : String(err));
}

/** Throws the ToolError the model sees for input that can never name a file. */
export function assertUsablePath(input: string): void {
  if (input.trim() === "") throw new ToolError("The path is empty; give a file or folder path.");
  if (input.includes("\0")) throw new ToolError("The path contains a NUL byte.");
}

function expandHome(input: string): string {
  if (input === "~") return os.homedir();
  if (input.startsWith("~/")) return path.join(os.homedir(), input.slice(2));
  return input;
}

/**
 * Walks the path one component at a time the way the kernel would, so `link/..`
 * lands where the OS would land, not where string normalisation would. Components
 * that do not exist yet are appended as they are. A dangling symlink is followed
 * to its target, because writing through it would create that target.
 */
async function walk(start: string, components: string[], budget: { links: number }): Promise<string> {
  let current = start;
  for (const part of components) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    let stat: Awaited<ReturnType<typeof fs.lstat>>;
    try {
      stat = await fs.lstat(next);
    } catch (err) {
      if (!isMissing(err)) throw new ToolError(`Cannot resolve ${next}: ${describeError(err)}`);
      current = next;
      continue;
    }
    if (!stat.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (--budget.links < 0) throw new ToolError(`Too many symbolic links while resolving ${next}.`);
    const target = await fs.readlink(next);
    const base = path.isAbsolute(target) ? path.parse(target).root : current;
    current = await walk(base, target.split(/[\\/]+/), budget);
  }
  return current;
}

async function realRoot(workspace: string): Promise<string> {
  try {
    return await fs.realpath(workspace);
  } catch (err) {
    throw new ToolError(`The workspace ${workspace} cannot be opened: ${describeError(err)}`);
  }
}

/** Resolves a model-supplied path (relative to the workspace, or absolute) to where it really points. */
export async function resolvePath(workspace: string, input: string): Promise<ResolvedPath> {
  assertUsablePath(input);
  const root = await realRoot(workspace);
  const expanded = expandHome(input);
  const start = path.isAbsolute(expanded) ? path.parse(expanded).root : root;
  const absolute = await walk(start, expanded.split(/[\\/]+/), { links: MAX_SYMLINKS });
  const rel = path.relative(root, absolute);
  const inside = rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
  const relative = inside ? (rel === "" ? "." : rel.split(path.sep).join("/")) : null;
  const written = path.relative(root, path.resolve(root, expanded)).split(path.sep).join("/");
  const lexical = written !== "" && !written.startsWith("..") && !path.isAbsolute(written) && isControlPath(written);
  // By where it leads: a control link's target, or what the repository's git config points at (its hooks folder).
  const viaLink = relative !== null && underTarget(relative, controlTargets(root, relative));
  return { absolute, relative, inside, control: (relative !== null && isControlPath(relative)) || lexical || viaLink };
}

/** The pattern the gate matches for this path: workspace-relative inside, absolute outside. */
export function permissionPath(resolved: ResolvedPath): string {
  return resolved.relative ?? resolved.absolute;
}

/** The folder pattern for a path outside the workspace (`dir/*`), which rules allow once per folder. */
export function externalDirectoryPattern(resolved: ResolvedPath, kind: "file" | "dir"): string {
  const dir = kind === "dir" ? resolved.absolute : path.dirname(resolved.absolute);
  return dir.endsWith("/") ? `${dir}*` : `${dir}/*`;
}

export function externalDirectoryAsk(resolved: ResolvedPath, kind: "file" | "dir"): PermissionAsk {
  const pattern = externalDirectoryPattern(resolved, kind);
  return {
    permission: "external_directory",
    patterns: [pattern],
    always: [pattern],
    readOnly: true,
    insideWorkspace: false,
    metadata: { path: resolved.absolute },
  };
}

/*
 * Between asks (which the gate judges) and execute (which may run minutes later,
 * after the user answered) a symlink could be swapped in. asks records the real
 * paths it saw per call; execute refuses if its own re-resolution differs.
 */
const MAX_REMEMBERED = 1_000;
const judged = new Map<string, string>();

function key(paths: readonly string[]): string {
  return [...paths].sort().join("\0");
}

export function rememberJudgedPaths(callId: string, paths: readonly string[]): void {
  if (judged.size >= MAX_REMEMBERED) {
    const oldest = judged.keys().next();
    if (oldest.done !== true) judged.delete(oldest.value);
  }
  judged.delete(callId);
  judged.set(callId, key(paths));
}

/** Throws when asks saw other real paths for this call; a call asks never saw passes (nothing to compare). */
export function assertJudgedPaths(callId: string, paths: readonly string[]): void {
  const seen = judged.get(callId);
  judged.delete(callId);
  if (seen === undefined || seen === key(paths)) return;
  throw new ToolError(
    "A path now resolves to a different location than when permission was asked (a symlink or folder changed); run the tool again.",
  );
}
