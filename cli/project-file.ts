// What `plangate connect` writes into a project and its settings: the project is a repository (untrusted), so a
// link planted at `.claude` or `.claude/settings.json` must not turn the write into one outside the project, and
// the server URL given on the command line goes into a hook command that a shell runs.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { readUntrustedFile } from "../lib/workspace/read-untrusted-file";
import { DEFAULT_URL } from "./client";

export class CliError extends Error {
  override name = "CliError";
}

/**
 * A Plangate server's origin: http(s), no credentials, nothing after the host but an optional "/". Anything else
 * (a path, a query, `;`, quotes, spaces) is refused: the origin is written into a command a shell runs.
 */
export function serverOrigin(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`--url ${JSON.stringify(raw)} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new CliError(`--url must be http:// or https://, not ${url.protocol}`);
  if (url.username || url.password)
    throw new CliError("--url must not carry credentials (use --token; it is saved apart)");
  if (
    (url.pathname !== "/" && url.pathname !== "") ||
    url.search ||
    url.hash ||
    !/^[A-Za-z0-9.:[\]-]+$/.test(url.host)
  ) {
    throw new CliError(`--url is the server's address only (e.g. http://127.0.0.1:3000), not ${JSON.stringify(raw)}`);
  }
  return url.origin;
}

/** The --url option (default: the local server) as an origin, or null after saying on stderr why it is refused. */
export function urlOption(value: string | undefined): string | null {
  try {
    return serverOrigin(value ?? DEFAULT_URL);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return null;
  }
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The folders from the project down to the file's, real folders or missing (never a link), created when asked. */
function checkFolders(root: string, file: string, create: boolean): void {
  const rel = path.relative(root, path.dirname(file));
  if (!inside(root, path.dirname(file))) throw new CliError(`${file} is not inside ${root}`);
  let dir = root;
  for (const part of rel === "" ? [] : rel.split(path.sep)) {
    dir = path.join(dir, part);
    const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (stat === undefined) {
      if (!create) return;
      fs.mkdirSync(dir);
    } else if (stat.isSymbolicLink() || !stat.isDirectory()) {
      throw new CliError(`${dir} is a link or not a folder; plangate does not write through it`);
    }
  }
}

/**
 * The file's text, or undefined when it is missing; never read through a link, never a FIFO or device, at most
 * 256 KiB (the project is a repository: read as untrusted, lib/workspace/read-untrusted-file.ts).
 */
export function readProjectFile(root: string, file: string): string | undefined {
  checkFolders(root, file, false);
  const got = readUntrustedFile(root, path.relative(root, file), { links: "never", display: file });
  if (got.status === "missing") return undefined;
  if (got.status === "refused") throw new CliError(`${got.reason}; plangate does not read or write through it`);
  return got.bytes.toString("utf8");
}

/** Writes a fresh file through a temporary one and a rename: a link at the name is replaced, never followed. */
export function writeProjectFile(root: string, file: string, content: string): void {
  checkFolders(root, file, true);
  readProjectFile(root, file);
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = fs.openSync(
    temp,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
    0o644,
  );
  try {
    fs.writeFileSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}
