// What `connect pi` and `connect kilo` share: each writes one module of Plangate's (pi's extension, Kilo's plugin)
// into the agent's user folder, where the agent loads it for every project, and records which projects are
// connected (this one, or with --scope user every one); elsewhere the module stays out of the way. The module holds
// no token: it runs `plangate hook <agent>`, which reads the saved one.
import fs from "node:fs";
import path from "node:path";
import { hookCommand } from "../lib/external/hook-command";
import { userHookRequest, userHookToken } from "./connect-user-hook";
import { isConnected, setConnected } from "./connections";
import { reportChecks, runHookCheck } from "./hook-check";
import { selfPath } from "./self";

export type CarriedSpec = {
  agent: string;
  /** The agent in words, e.g. "pi", "Kilo". */
  name: string;
  usage: string;
  /** Where the agent loads it from. */
  file: () => string;
  marker: string;
  /** The file's text for this hook command and --asks. */
  source: (command: string, asks: boolean) => string;
  /** What the module does, for the line connect prints, e.g. "pi's plan mode". */
  does: string;
  /** What --asks adds, in words; or, for an agent that cannot wait on one, why --asks is refused. */
  asks: string | { refused: string };
  /** A hook deadline the agent imposes (seconds), in place of --timeout. */
  deadlineSec?: number;
  /** The last line connect prints (how to load it). */
  note: string;
};

// Neither agent puts a limit on the module's wait: the hook's own deadline is the only one.
const MAX_TIMEOUT_SEC = 7 * 24 * 3600;

/** The file's text, undefined when there is none; an error when it is not Plangate's (nothing is changed then). */
function readOurs(file: string, marker: string): string | undefined {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) return undefined;
  const text = st.isFile() ? fs.readFileSync(file, "utf8") : "";
  if (!text.startsWith(marker)) throw new Error(`${file} exists and was not written by plangate`);
  return text;
}

function check(spec: CarriedSpec, file: string, expected: string, command: string, project: string): number {
  let text: string | undefined;
  try {
    text = readOurs(file, spec.marker);
  } catch (error) {
    text = undefined;
    console.log(`plangate: note: ${error instanceof Error ? error.message : String(error)}`);
  }
  return reportChecks([
    text === undefined
      ? { ok: false, line: `${file} is missing: run plangate connect ${spec.agent}` }
      : text === expected
        ? { ok: true, line: `${file} is Plangate's, up to date` }
        : { ok: false, line: `${file} is from another plangate or server: run plangate connect ${spec.agent} again` },
    isConnected(spec.agent, project)
      ? { ok: true, line: `${project} is connected` }
      : { ok: false, line: `${project} is not connected: ${spec.name} runs there without Plangate` },
    runHookCheck(command, project),
  ]);
}

export async function connectCarried(spec: CarriedSpec, args: string[]): Promise<number> {
  const r = userHookRequest(args, spec.usage, MAX_TIMEOUT_SEC);
  if (typeof r === "number") return r;
  const { opts, url, scope, project } = r;
  if (opts.asks && typeof spec.asks !== "string") {
    console.error(`plangate: --asks is not offered for ${spec.name}: ${spec.asks.refused}`);
    return 2;
  }
  const timeoutSec = spec.deadlineSec ?? r.timeoutSec;
  const file = spec.file();
  const command = hookCommand(selfPath(), spec.agent, url, ["--deadline", String(timeoutSec)]);
  const source = spec.source(command, opts.asks === true);
  if (opts.check) return check(spec, file, source, command, project);
  let existing: string | undefined;
  try {
    existing = readOurs(file, spec.marker);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  const told = await userHookToken(r, spec.agent);
  if (told === null) return 1;
  const connected = setConnected(spec.agent, scope === "user" ? { all: true } : { project }, opts.remove === true);
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
    `plangate: ${file}: ${spec.does} → ${url}${opts.asks ? `, with ${spec.asks}` : ""} (a wait ends after ${timeoutSec} s${spec.deadlineSec ? ", then the model asks again" : ""})`,
  );
  console.log(`plangate: connected: ${connected.words}`);
  for (const line of told) console.log(`plangate: ${line}`);
  console.log(`plangate: note: ${spec.note}`);
  return 0;
}
