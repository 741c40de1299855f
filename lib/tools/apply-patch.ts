import { applyPatch, parsePatch, type StructuredPatch } from "diff";
import { z } from "zod";
import {
  assertJudgedPaths,
  externalDirectoryAsk,
  permissionPath,
  rememberJudgedPaths,
  resolvePath,
  type ResolvedPath,
} from "../workspace/resolve-path";
import {
  assertMayWrite,
  controlPatterns,
  exactPathOptions,
  fsToolError,
  readTextIfExists,
  realPlanFile,
  writeAllowed,
} from "./file-common";
import { assertReachable, type Files, onFiles, outsideOf } from "./file-view";
import { truncateOutput } from "./truncate";
import { ToolError, type PermissionAsk, type ToolContext, type ToolDef } from "./types";

const DEV_NULL = "/dev/null";

const applyPatchInput = z.object({
  patch: z.string().min(1).describe("A unified diff (git style) touching one or more files."),
});
export type ApplyPatchInput = z.infer<typeof applyPatchInput>;

type Kind = "modify" | "create" | "delete" | "rename" | "copy";
/** One file section of the patch; `source` is read, `target` is written (the same path except for rename/copy). */
type Change = { kind: Kind; source: string; target: string; patch: StructuredPatch };
type Resolved = { change: Change; source: ResolvedPath; target: ResolvedPath };

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function strip(name: string, prefix: string): string {
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function kindOf(p: StructuredPatch, oldPath: string | null, newPath: string | null): Kind {
  if (oldPath === null || p.isCreate === true) return "create";
  if (newPath === null || p.isDelete === true) return "delete";
  if (p.isRename === true && oldPath !== newPath) return "rename";
  if (p.isCopy === true && oldPath !== newPath) return "copy";
  return "modify";
}

/** The file sections of a patch, with git's a/ and b/ prefixes removed. Depends only on the patch text. */
export function parseChanges(text: string): Change[] {
  let parsed: StructuredPatch[];
  try {
    parsed = parsePatch(text);
  } catch (err) {
    throw new ToolError(`Could not parse the patch: ${errorText(err)}`);
  }
  const sections = parsed.filter(
    (p) => p.oldFileName !== undefined || p.newFileName !== undefined || p.hunks.length > 0,
  );
  if (sections.length === 0) {
    throw new ToolError("The patch contains no file changes; give a unified diff with ---/+++ headers and @@ hunks.");
  }
  return sections.map((p) => {
    const oldName = p.oldFileName;
    const newName = p.newFileName;
    if (oldName === undefined || newName === undefined || (oldName === DEV_NULL && newName === DEV_NULL)) {
      throw new ToolError("A hunk has no file to apply to; start each file with `--- a/path` and `+++ b/path` lines.");
    }
    if (p.isBinary === true) throw new ToolError(`Binary changes cannot be applied (${newName}).`);
    // Without a `diff --git` line, a/ and b/ still mean git prefixes when both sides use them (or /dev/null).
    const git =
      p.isGit === true ||
      ((oldName === DEV_NULL || oldName.startsWith("a/")) && (newName === DEV_NULL || newName.startsWith("b/")));
    const oldPath = oldName === DEV_NULL ? null : git ? strip(oldName, "a/") : oldName;
    const newPath = newName === DEV_NULL ? null : git ? strip(newName, "b/") : newName;
    const kind = kindOf(p, oldPath, newPath);
    const source = (kind === "create" ? newPath : (oldPath ?? newPath)) ?? "";
    const target = (kind === "delete" ? oldPath : (newPath ?? oldPath)) ?? "";
    return { kind, source, target, patch: p };
  });
}

async function resolveChanges(changes: Change[], ctx: ToolContext): Promise<Resolved[]> {
  const out: Resolved[] = [];
  for (const change of changes) {
    const source = await resolvePath(ctx.workspace, change.source);
    const target = change.target === change.source ? source : await resolvePath(ctx.workspace, change.target);
    out.push({ change, source, target });
  }
  return out;
}

/** Every distinct path the patch reads or writes, in patch order. */
function touched(resolved: Resolved[]): ResolvedPath[] {
  const byPath = new Map<string, ResolvedPath>();
  for (const r of resolved) {
    byPath.set(r.source.absolute, r.source);
    byPath.set(r.target.absolute, r.target);
  }
  return [...byPath.values()];
}

function applyHunks(before: string, patch: StructuredPatch, display: string): string {
  const after = applyPatch(before, patch);
  if (after !== false) return after;
  // Re-apply hunk by hunk only to name the one that failed.
  let text = before;
  for (const [i, hunk] of patch.hunks.entries()) {
    const step = applyPatch(text, { ...patch, hunks: [hunk] });
    if (step === false) {
      const header = `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
      throw new ToolError(
        `Hunk ${i + 1} of ${patch.hunks.length} (${header}) does not apply to ${display}: its context or removed lines do not match the file. Read the file and make the patch again.`,
      );
    }
    text = step;
  }
  throw new ToolError(`The patch does not apply to ${display}: its hunks overlap or are out of order.`);
}

/** Works out every file's new content (null = deleted) without touching the disk. */
async function plan(
  files: Files,
  resolved: Resolved[],
): Promise<{ next: Map<string, string | null>; original: Map<string, string | null> }> {
  const next = new Map<string, string | null>();
  const original = new Map<string, string | null>();
  const current = async (r: ResolvedPath): Promise<string | null> => {
    if (!next.has(r.absolute)) {
      const text = await readTextIfExists(files, r.absolute, permissionPath(r));
      original.set(r.absolute, text);
      next.set(r.absolute, text);
    }
    return next.get(r.absolute) ?? null;
  };
  for (const { change, source, target } of resolved) {
    const from = permissionPath(source);
    const to = permissionPath(target);
    if (change.kind === "create") {
      const existing = await current(target);
      if (existing !== null && existing !== "") throw new ToolError(`Cannot create ${to}: it already exists.`);
      next.set(target.absolute, applyHunks("", change.patch, to));
      continue;
    }
    const before = await current(source);
    if (before === null)
      throw new ToolError(`File not found: ${from}. To create a file, use "--- /dev/null" as its old name.`);
    if (change.kind === "delete") {
      // A deletion without hunks is taken at its word; with hunks they must match and leave nothing.
      if (change.patch.hunks.length > 0 && applyHunks(before, change.patch, from) !== "") {
        throw new ToolError(`The patch deletes ${from} but its hunks do not remove all of its content.`);
      }
      next.set(source.absolute, null);
      continue;
    }
    const after = applyHunks(before, change.patch, from);
    if (change.kind !== "modify") {
      const existing = await current(target);
      if (existing !== null) throw new ToolError(`Cannot ${change.kind} ${from} to ${to}: ${to} already exists.`);
    }
    next.set(target.absolute, after);
    if (change.kind === "rename") next.set(source.absolute, null);
  }
  return { next, original };
}

async function putBack(
  files: Files,
  planFile: string | null,
  absolute: string,
  content: string | null,
  display: string,
): Promise<void> {
  if (content !== null) return writeAllowed(files, absolute, content, display, planFile);
  try {
    await files({ op: "remove", path: absolute });
  } catch (err) {
    throw fsToolError(err, display, "write");
  }
}

const ACTION_LETTER: Record<Kind, string> = { modify: "M", create: "A", delete: "D", rename: "R", copy: "C" };

export const applyPatchTool: ToolDef<ApplyPatchInput> = {
  name: "apply_patch",
  description: [
    "Apply a unified diff (git style) to one or more files at once: `--- a/path` / `+++ b/path` headers, then @@ hunks with 3 lines of context.",
    'Create a file with "--- /dev/null", delete one with "+++ /dev/null". Paths are relative to the workspace.',
    "All or nothing: if any hunk does not match its file, nothing is written and the error names the file and hunk.",
  ].join("\n"),
  permission: "edit",
  inputSchema: applyPatchInput,

  async asks(input, ctx) {
    const resolved = await resolveChanges(parseChanges(input.patch), ctx);
    const paths = touched(resolved);
    assertReachable(ctx, paths);
    rememberJudgedPaths(
      ctx.callId,
      paths.map((p) => p.absolute),
    );
    const planFile = await realPlanFile(ctx);
    const patterns = paths.map(permissionPath);
    const asks: PermissionAsk[] = [];
    const seenDirs = new Set<string>();
    for (const p of paths.filter((r) => !r.inside)) {
      const ask = externalDirectoryAsk(p, "file");
      const key = ask.patterns.join("\0");
      if (!seenDirs.has(key)) asks.push(ask);
      seenDirs.add(key);
    }
    asks.push({
      permission: "edit",
      patterns,
      always: [...patterns],
      alwaysOptions: exactPathOptions(patterns),
      control: controlPatterns(paths, planFile, ctx.held),
      readOnly: false,
      planFile: planFile !== null && paths.every((p) => p.absolute === planFile),
      insideWorkspace: paths.every((p) => p.inside),
      metadata: { files: patterns, diff: input.patch },
    });
    return asks;
  },

  async execute(input, ctx) {
    const resolved = await resolveChanges(parseChanges(input.patch), ctx);
    const paths = touched(resolved);
    assertJudgedPaths(
      ctx.callId,
      paths.map((p) => p.absolute),
    );
    const planFile = await realPlanFile(ctx);
    for (const p of paths) assertMayWrite(ctx, p, planFile);
    const display = new Map(paths.map((p) => [p.absolute, permissionPath(p)]));
    await onFiles(ctx, { write: true, outside: outsideOf(paths, "file") }, async (files) => {
      const { next, original } = await plan(files, resolved);
      const done: string[] = [];
      try {
        for (const [absolute, content] of next) {
          if (content === original.get(absolute)) continue;
          await putBack(files, planFile, absolute, content, display.get(absolute) ?? absolute);
          done.push(absolute);
        }
      } catch (err) {
        // Best effort to stay all-or-nothing when the disk fails halfway (full disk, permissions).
        for (const absolute of done.reverse()) {
          await putBack(
            files,
            planFile,
            absolute,
            original.get(absolute) ?? null,
            display.get(absolute) ?? absolute,
          ).catch(() => undefined);
        }
        throw fsToolError(err, "a file of the patch", "write");
      }
    });
    const lines = resolved.map(({ change, source, target }) =>
      change.kind === "rename" || change.kind === "copy"
        ? `${ACTION_LETTER[change.kind]} ${permissionPath(source)} → ${permissionPath(target)}`
        : `${ACTION_LETTER[change.kind]} ${permissionPath(target)}`,
    );
    const files = resolved.map(({ change, target }) => ({ path: permissionPath(target), action: change.kind }));
    const count = new Set(files.map((f) => f.path)).size;
    return {
      output: truncateOutput(`Applied the patch to ${count} ${count === 1 ? "file" : "files"}:\n${lines.join("\n")}`),
      metadata: { files },
    };
  },
};
