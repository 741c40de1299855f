import fs from "node:fs";
import path from "node:path";
import { warmFileWorker, withFileWorker } from "../sandbox/confined-fs/worker-client";
import type { Request, ResultOf, Root } from "../sandbox/confined-fs/protocol";
import type { ResolvedPath } from "../workspace/resolve-path";
import { ToolError, type ToolContext } from "./types";

/** The file tools' only way to the disk: a request to the call's file worker. */
export type Files = <R extends Request>(r: R) => Promise<ResultOf<R>>;

/** A path outside the workspace that a person allowed this call (its external_directory ask), and how it is used. */
export type OutsidePath = { path: ResolvedPath; kind: "file" | "dir" };

export const NO_SANDBOX_OUTSIDE =
  "Without the sandbox (bubblewrap) the file tools reach only the workspace; this path is outside it.";

/** The folder an outside path was allowed as (external_directory's `folder/*`): the file's folder, or the folder. */
export function outsideFolder(o: OutsidePath): string {
  return o.kind === "dir" ? o.path.absolute : path.dirname(o.path.absolute);
}

/** Refuses, before anyone is asked, an outside path that could never be reached: without the sandbox, none can. */
export function assertReachable(ctx: ToolContext, paths: readonly ResolvedPath[]): void {
  if (!ctx.sandbox.available && paths.some((p) => !p.inside)) throw new ToolError(NO_SANDBOX_OUTSIDE);
}

/** The plan folder as a root of its own in a read-only view: only a real folder inside the workspace. */
function planRoot(ctx: Pick<ToolContext, "workspace" | "planFile">): Root[] {
  if (ctx.planFile === null) return [];
  const dir = path.dirname(ctx.planFile);
  const rel = path.relative(ctx.workspace, dir);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return [];
  try {
    return fs.realpathSync(dir) === dir && fs.lstatSync(dir).isDirectory() ? [{ path: dir, write: true }] : [];
  } catch {
    return [];
  }
}

/**
 * Runs `fn` against the call's confined view: the workspace (read-only in plan mode and for read-only agents), the
 * session's plan folder while the workspace is read-only, and the outside folders a person allowed this very call
 * (writable only for a call that writes).
 * A view without outside folders is the session's kept worker; one with them is a worker for this call alone.
 */
type ViewOf = Pick<ToolContext, "sessionId" | "workspace" | "readOnly" | "planFile" | "sandbox">;

/** The session's own view (no outside folder): its roots, and the key its kept worker goes by. */
function sessionView(ctx: ViewOf): { key: string; roots: Root[] } {
  // The workspace's mount is the session's, not the call's: one kept worker serves its reads and writes, and a
  // read-only session (plan mode, a read-only agent) gets it read-only with only the plan folder writable.
  const roots: Root[] = [{ path: ctx.workspace, write: !ctx.readOnly }, ...(ctx.readOnly ? planRoot(ctx) : [])];
  return { key: `${ctx.sessionId}\0${JSON.stringify(roots)}`, roots };
}

/** Starts the session's worker ahead of its first call (a turn does, while the model thinks); never throws. */
export function warmFiles(ctx: ViewOf): void {
  const { key, roots } = sessionView(ctx);
  warmFileWorker({ key, roots, cwd: ctx.workspace, sandbox: ctx.sandbox });
}

export async function onFiles<T>(
  ctx: ToolContext,
  access: { write: boolean; outside?: readonly OutsidePath[] },
  fn: (files: Files) => Promise<T>,
): Promise<T> {
  const outside = access.outside ?? [];
  assertReachable(
    ctx,
    outside.map((o) => o.path),
  );
  const own = sessionView(ctx);
  const roots = [...own.roots];
  const writable = access.write && !ctx.readOnly;
  for (const o of outside) {
    const folder = outsideFolder(o);
    if (roots.some((r) => r.path === folder)) continue;
    // A folder is shown by binding it, so it must exist; the tools do not create folders outside the workspace.
    if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory())
      throw new ToolError(
        `${folder} is not an existing folder; outside the workspace the file tools create no folders.`,
      );
    roots.push({ path: folder, write: writable });
  }
  const key = outside.length === 0 ? own.key : null;
  return withFileWorker({ key, roots, cwd: ctx.workspace, sandbox: ctx.sandbox }, fn, ctx.signal);
}

/** The outside paths among these, for onFiles: every one of them was judged outside and allowed by a person. */
export function outsideOf(paths: readonly ResolvedPath[], kind: "file" | "dir"): OutsidePath[] {
  return paths.filter((p) => !p.inside).map((p) => ({ path: p, kind }));
}
