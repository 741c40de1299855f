import path from "node:path";
import type { HiddenPath } from "../bwrap-args";
import type { HostView } from "../host-view";
import type { Root } from "./protocol";

type Mount = { path: string; args: string[] };

const depth = (p: string) => (p === "/" ? 0 : p.split("/").length - 1);

/**
 * The bubblewrap options for a file worker: an empty root holding only the system's programs and libraries (for
 * Node.js itself), the worker's own folder, /proc (for its descriptors) and /dev, and the call's roots, read-only
 * or writable as the server decided. No /etc, no home, no data folder: what is not bound does not exist. Mounts
 * are made parent first, so a root inside another (the plan folder in a read-only workspace) and a hidden server
 * folder around or inside a root each land where they belong.
 */
export function workerBwrapArgs(o: {
  view: Pick<HostView, "system" | "extraRead" | "emptyFile">;
  workerDir: string;
  roots: readonly Root[];
  hide: readonly HiddenPath[];
  cwd: string;
}): string[] {
  const args: string[] = [];
  for (const entry of o.view.system) {
    if (entry.symlink !== null) args.push("--symlink", entry.symlink, entry.path);
    else args.push("--ro-bind", entry.path, entry.path);
  }
  args.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");
  for (const extra of [...o.view.extraRead, o.workerDir]) args.push("--ro-bind", extra, extra);
  const mounts: Mount[] = [
    ...o.roots.map((r) => ({ path: r.path, args: [r.write ? "--bind" : "--ro-bind", r.path, r.path] })),
    ...o.hide.map((h) => ({
      path: h.path,
      args: h.dir ? ["--tmpfs", h.path] : ["--ro-bind", o.view.emptyFile, h.path],
    })),
  ];
  // Stable: at equal depth a root comes before the hidden file that lies in it.
  mounts.sort((a, b) => depth(a.path) - depth(b.path));
  for (const m of mounts) args.push(...m.args);
  // Only once the roots inside them are bound: a read-only tmpfs could not take their mount points.
  for (const h of o.hide) if (h.dir) args.push("--remount-ro", h.path);
  args.push("--remount-ro", "/");
  args.push("--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-pid", "--hostname", "sandbox");
  args.push("--cap-drop", "ALL");
  args.push("--die-with-parent", "--new-session", "--clearenv", "--setenv", "PATH", "/usr/bin:/bin");
  args.push("--chdir", path.resolve(o.cwd));
  return args;
}
