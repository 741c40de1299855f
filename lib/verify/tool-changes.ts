import type { SessionEvent } from "../session/log/events";
import type { Change } from "./match-plan";

function relative(workspace: string, file: string): string {
  return file.startsWith(`${workspace}/`) ? file.slice(workspace.length + 1) : file.replace(/^\.\//, "");
}

/** Pure: the files the session's own tools changed after `afterSeq` (write, edit, apply_patch), with their diffs. */
export function toolChanges(events: readonly SessionEvent[], afterSeq: number, workspace: string): Change[] {
  const out = new Map<string, Change>();
  for (const e of events) {
    if (e.seq <= afterSeq || e.type !== "tool.result" || !e.payload.ok) continue;
    if (!["write", "edit", "apply_patch"].includes(e.payload.tool)) continue;
    const meta = (e.payload.metadata ?? {}) as { path?: unknown; files?: unknown; diff?: unknown; created?: unknown };
    const files =
      typeof meta.path === "string"
        ? [meta.path]
        : Array.isArray(meta.files)
          ? meta.files.filter((f): f is string => typeof f === "string")
          : [];
    for (const f of files) {
      const key = relative(workspace, f);
      const prev = out.get(key);
      const patch = [prev?.patch, typeof meta.diff === "string" && files.length === 1 ? meta.diff : ""]
        .filter(Boolean)
        .join("\n");
      out.set(key, {
        path: key,
        status: prev?.status ?? (meta.created === true ? "added" : "modified"),
        patch,
        via: ["tool"],
      });
    }
  }
  return [...out.values()];
}

/** Pure: the tools' view and git's view of the same work, one entry per file. */
export function mergeChanges(tools: Change[], git: Omit<Change, "via">[] | null): Change[] {
  if (!git) return tools;
  const byPath = new Map(tools.map((c) => [c.path, c]));
  const merged: Change[] = git.map((g) =>
    byPath.has(g.path) ? { ...g, via: ["tool", "git"] } : { ...g, via: ["git"] },
  );
  // A file a tool wrote and then restored shows in the tools' log but not in git: it did not change.
  return merged;
}
