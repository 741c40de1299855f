// `plangate connect pi [--url URL] [--email EMAIL | --token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks]
// [--check] [--remove]`: pi loads extensions from ~/.pi/agent/extensions (a project's own .pi/extensions only when
// pi starts in exactly that folder), so Plangate's extension goes there, and this project (or, with --scope user,
// every project) is recorded as connected; elsewhere the extension stays out of the way.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { hookCommand } from "../lib/external/hook-command";
import { userHookRequest, userHookToken } from "./connect-user-hook";
import { isConnected, setConnected } from "./connections";
import { reportChecks, runHookCheck } from "./hook-check";
import { PI_EXTENSION_MARKER, piExtensionFile } from "./pi-extension-file";
import { selfPath } from "./self";

/** The bundled extension (cli/pi-extension.ts), put in by esbuild when the CLI is built. */
declare const PLANGATE_PI_EXTENSION: string;

const USAGE =
  "usage: plangate connect pi [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks] [--check] [--remove]";
// Pi puts no limit on an extension's wait: the hook's own deadline is the only one.
const MAX_TIMEOUT_SEC = 7 * 24 * 3600;

const extensionFile = () =>
  path.join(process.env.PI_CODING_AGENT_DIR || path.join(os.homedir(), ".pi", "agent"), "extensions", "plangate.js");

/** The file's text, undefined when there is none; an error when it is not Plangate's (nothing is changed then). */
function readOurs(file: string): string | undefined {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) return undefined;
  const text = st.isFile() ? fs.readFileSync(file, "utf8") : "";
  if (!text.startsWith(PI_EXTENSION_MARKER)) throw new Error(`${file} exists and was not written by plangate`);
  return text;
}

function check(file: string, expected: string, command: string, project: string): number {
  let text: string | undefined;
  try {
    text = readOurs(file);
  } catch (error) {
    text = undefined;
    console.log(`plangate: note: ${error instanceof Error ? error.message : String(error)}`);
  }
  return reportChecks([
    text === undefined
      ? { ok: false, line: `${file} is missing: run plangate connect pi` }
      : text === expected
        ? { ok: true, line: `${file} is Plangate's extension, up to date` }
        : { ok: false, line: `${file} is from another plangate or server: run plangate connect pi again` },
    isConnected("pi", project)
      ? { ok: true, line: `${project} is connected` }
      : { ok: false, line: `${project} is not connected: pi runs there without Plangate's plan mode` },
    runHookCheck(command, project),
  ]);
}

export async function run(args: string[]): Promise<number> {
  const r = userHookRequest(args, USAGE, MAX_TIMEOUT_SEC);
  if (typeof r === "number") return r;
  const { opts, url, scope, timeoutSec, project } = r;
  const file = extensionFile();
  const command = hookCommand(selfPath(), "pi", url, ["--deadline", String(timeoutSec)]);
  const source = piExtensionFile(PLANGATE_PI_EXTENSION, { command, asks: opts.asks === true });
  if (opts.check) return check(file, source, command, project);
  let existing: string | undefined;
  try {
    existing = readOurs(file);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  const told = await userHookToken(r, "pi");
  if (told === null) return 1;
  const connected = setConnected("pi", scope === "user" ? { all: true } : { project }, opts.remove === true);
  if (opts.remove) {
    if (existing !== undefined && (scope === "user" || connected.none)) {
      fs.rmSync(file);
      console.log(`plangate: removed ${file}`);
    }
    console.log(`plangate: connected: ${connected.words}`);
    return 0;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (existing !== source) fs.writeFileSync(file, source);
  console.log(
    `plangate: ${file}: pi's plan mode → ${url}${opts.asks ? ", with its edit, write and bash calls after an approval asked on the desk" : ""} (a wait ends after ${timeoutSec} s)`,
  );
  console.log(`plangate: connected: ${connected.words}`);
  for (const line of told) console.log(`plangate: ${line}`);
  console.log("plangate: note: restart pi to load the extension; `pi -ne` starts it without");
  return 0;
}
