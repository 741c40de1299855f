// Which projects an agent's user-wide hook serves (Gemini CLI and Codex read hooks from the user's settings only,
// so the hook runs in every project): `plangate connect <agent>` in a project adds it, `--scope user` adds every
// project, `--remove` takes it out. Kept beside the credentials, never in a project. A hook in a project not
// listed answers as if no hook ran.
import fs from "node:fs";
import path from "node:path";
import { configDir } from "./client";

type Connections = Record<string, { all?: boolean; projects?: string[] }>;

const file = () => path.join(configDir(), "connections.json");

/**
 * Only a missing file means nothing is connected: a file that cannot be read or parsed is an error, so a hook
 * fails (and refuses) rather than answering as if its project were not connected.
 */
function read(): Connections {
  let text: string;
  try {
    text = fs.readFileSync(file(), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(`${file()} is not a JSON object`);
  return parsed as Connections;
}

/** Written aside and renamed into place: a hook reading it meanwhile sees the old file or the new one, whole. */
function write(c: Connections): void {
  fs.mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  const aside = `${file()}.${process.pid}.tmp`;
  fs.writeFileSync(aside, `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(aside, file());
}

const within = (root: string, p: string) => {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};

/** Whether the agent's hook serves the folder `cwd` (a project connected, or one inside it, or every project). */
export function isConnected(agent: string, cwd: string): boolean {
  const entry = read()[agent];
  if (!entry) return false;
  if (entry.all) return true;
  let real = cwd;
  try {
    real = fs.realpathSync(cwd);
  } catch {}
  return (entry.projects ?? []).some((p) => within(p, real));
}

/**
 * For an agent that names a repository's top as well as the folder it runs in (Cline): gated when any of the folders
 * is in a connected project, or a connected project lies inside one of them (a connected subfolder of a monorepo
 * gates the agent at its top: more is gated, never less).
 */
export function gatesAny(agent: string, folders: string[]): boolean {
  const entry = read()[agent];
  if (!entry) return false;
  if (entry.all) return true;
  const reals = folders.map((f) => {
    try {
      return fs.realpathSync(f);
    } catch {
      return f;
    }
  });
  return (entry.projects ?? []).some((p) => reals.some((r) => within(p, r) || within(r, p)));
}

/**
 * Adds (or with `remove`, takes out) a project, or every project with `all`: what is connected now, in words, and
 * whether nothing is (the hook can then go).
 */
export function setConnected(
  agent: string,
  target: { all: true } | { project: string },
  remove = false,
): { words: string; none: boolean } {
  const c = read();
  const entry = { ...(c[agent] ?? {}) };
  if ("all" in target) entry.all = !remove;
  else {
    const projects = new Set(entry.projects ?? []);
    if (remove) projects.delete(target.project);
    else projects.add(target.project);
    entry.projects = [...projects].sort();
  }
  c[agent] = entry;
  write(c);
  const projects = entry.projects ?? [];
  if (entry.all) return { words: "every project", none: false };
  return { words: `${projects.length} project(s): ${projects.join(", ")}`, none: projects.length === 0 };
}
