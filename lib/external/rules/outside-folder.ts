import path from "node:path";
import { AppError } from "../../errors";

/**
 * Pure: an outside agent's folder as a label. The agent may run on another machine, so the server never resolves
 * it on its own disk (never reads, writes or follows a link there): it is named as the agent said, made absolute
 * and normalised by its text only (`/a/b/../c/` is `/a/c`), and names the workspace whose roles, policy, trust
 * and grants apply. A Windows folder (`C:\\work\\shop`) is written with forward slashes.
 */
export function outsideFolder(cwd: string): string {
  const windows = /^[A-Za-z]:[\\/]/.test(cwd);
  const text = windows ? cwd.replace(/\\/g, "/") : cwd;
  if (!windows && !text.startsWith("/"))
    throw new AppError("bad_request", "cwd: the agent's folder as an absolute path (it is a label, not resolved here)");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new AppError("bad_request", "cwd: no control characters");
  const normal = windows ? `${text.slice(0, 2)}${path.posix.normalize(text.slice(2))}` : path.posix.normalize(text);
  return normal.length > 1 && normal.endsWith("/") ? normal.slice(0, -1) : normal;
}

/**
 * Pure: a file an outside agent's tool names, relative to its folder by text alone (as outsideFolder); null when
 * it leads out of the folder (the agent's own dialog asks about it then).
 */
export function fileInOutsideFolder(folder: string, file: string): string | null {
  const windows = /^[A-Za-z]:\//.test(folder);
  const name = windows ? file.replace(/\\/g, "/") : file;
  const absolute = windows ? /^[A-Za-z]:\//.test(name) : name.startsWith("/");
  const base = windows ? folder.slice(2) : folder;
  const target = absolute ? (windows ? name.slice(2) : name) : path.posix.join(base, name);
  if (windows && absolute && name.slice(0, 2).toLowerCase() !== folder.slice(0, 2).toLowerCase()) return null;
  const rel = path.posix.relative(base, path.posix.normalize(target));
  return rel === "" || rel.startsWith("..") || path.posix.isAbsolute(rel) ? null : rel;
}
