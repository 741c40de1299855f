import fs from "node:fs";
import path from "node:path";

/*
 * The data folder holds every plan, message, session token and password hash: it is for the server's own user
 * only. Its folders are 0700 and its files 0600 whatever the umask (the process umask is left alone: it also
 * governs the files the agent's tools and commands make in workspaces, which are the person's project). SQLite
 * creates a database's -wal, -shm and -journal with the database file's own mode, so a database file made 0600
 * here keeps its journals 0600 too.
 */

const GROUP_OTHER = 0o077;
/** The data folder's folder for what a command planted where a control file was missing (lib/sandbox/guard-controls). */
export const QUARANTINE = "quarantine";
const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** mkdir -p; every folder it creates, and the folder itself, for its owner only. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = fs.statSync(dir).mode;
  if (mode & GROUP_OTHER) fs.chmodSync(dir, mode & 0o700);
}

/**
 * The file exists and is its owner's only (created 0600 if missing, tightened if looser): SQLite then makes the
 * database's journals with the same mode. The path is the operator's (DATABASE_URL): a link there is followed.
 */
export function ensurePrivateFile(file: string): void {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_CREAT | fs.constants.O_NONBLOCK, 0o600);
  try {
    const mode = fs.fstatSync(fd).mode;
    // Another account's file (a database the operator shares on purpose) is left as it is.
    if (mode & GROUP_OTHER) fs.fchmodSync(fd, mode & 0o700);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") throw error;
  } finally {
    fs.closeSync(fd);
  }
}

/** A SQLite database file and the journals SQLite keeps beside it. */
export function sqliteFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Removes group and other rights from one entry (never through a link); says what changed, or null. */
function tighten(p: string, shown: string): string | null {
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!st || st.isSymbolicLink() || !(st.mode & GROUP_OTHER)) return null;
  if (!st.isFile() && !st.isDirectory()) return null;
  fs.chmodSync(p, st.mode & 0o700);
  return `${shown} (${octal(st.mode)} → ${octal(st.mode & 0o700)})`;
}

const MAX_ENTRIES = 20_000;

/**
 * Tightens `folder` and everything under it for its owner only (folders 0700, files 0600, or 0700 for one its
 * owner may run), never following a link. Returns what it changed, in words; `base` names entries relative to it.
 */
export function tightenTree(folder: string, base = folder): string[] {
  const changed: string[] = [];
  let seen = 0;
  const name = (p: string) => (p === base ? p : inside(base, p) ? path.relative(base, p) : p);
  const walk = (p: string) => {
    if (++seen > MAX_ENTRIES) return;
    const done = tighten(p, name(p));
    if (done) changed.push(done);
    if (!fs.lstatSync(p, { throwIfNoEntry: false })?.isDirectory()) return;
    for (const entry of fs.readdirSync(p).sort()) walk(path.join(p, entry));
  };
  if (fs.existsSync(folder)) walk(path.resolve(folder));
  return changed;
}

/**
 * On start: the data folder, each file and folder directly in it (the database and its journals, auth-secret,
 * any other; a folder 0700 keeps what is inside it from others), the quarantine with all it holds, and the SQLite
 * database with its journals wherever it is kept, for their owner only. Workspace roots inside the data folder keep
 * their modes: the person's files are theirs. Returns what was tightened (empty when nothing was looser).
 */
export function tightenDataFolder(
  dataDir: string,
  opts: { sqliteFile: string | null; keep: readonly string[] },
): string[] {
  const changed: string[] = [];
  const add = (p: string, shown: string) => {
    const done = tighten(p, shown);
    if (done) changed.push(done);
  };
  if (!fs.existsSync(dataDir)) return changed;
  // The operator may point PLANGATE_DATA_DIR (or a root) through a link: judged where it leads.
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const data = real(dataDir);
  add(data, path.resolve(dataDir));
  const keep = new Set(opts.keep.map(real));
  for (const entry of fs.readdirSync(/*turbopackIgnore: true*/ data).sort()) {
    const p = path.join(/*turbopackIgnore: true*/ data, entry);
    if (keep.has(p)) continue;
    if (entry === QUARANTINE) changed.push(...tightenTree(p, data));
    else add(p, entry);
  }
  // Wherever the database is (in a folder of the data folder, or elsewhere), it and its journals are the server's.
  if (opts.sqliteFile)
    for (const f of sqliteFiles(real(opts.sqliteFile))) add(f, inside(data, f) ? path.relative(data, f) : f);
  return changed;
}
