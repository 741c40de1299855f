// `plangate connect copilot [--url URL] [--email EMAIL | --token TOKEN] [--scope project|user] [--timeout SECONDS]
// [--asks] [--check] [--remove]`: Copilot CLI runs the hooks in $COPILOT_HOME/hooks/*.json in every project (a
// repository's own .github/hooks only in a folder it trusts), so Plangate's hook is a file of its own there,
// plangate.json, and this project (or, with --scope user, every project) is recorded as connected; elsewhere the
// hook answers as if it were not there.
import fs from "node:fs";
import path from "node:path";
import { COPILOT_PLAN_TOOL, copilotHooksFile } from "../lib/external/copilot-hook";
import { hookCommand, isPlangateHook } from "../lib/external/hook-command";
import { userHookRequest, userHookToken } from "./connect-user-hook";
import { isConnected, setConnected } from "./connections";
import { reportChecks, runHookCheck } from "./hook-check";
import { copilotHome } from "./hook-copilot";
import { selfPath } from "./self";

const USAGE =
  "usage: plangate connect copilot [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks] [--check] [--remove]";
const MAX_TIMEOUT_SEC = 7 * 24 * 3600;

type Entry = { matcher?: string; bash?: string; timeoutSec?: number };

/**
 * Plangate's entry for exit_plan_mode in the file, null when there is no file; an error when the file is not
 * wholly Plangate's (a link, another event, another command): it is then never overwritten or removed.
 */
function readOurs(file: string): Entry | null {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) return null;
  const parsed = (st.isFile() ? JSON.parse(fs.readFileSync(file, "utf8")) : null) as {
    version?: unknown;
    hooks?: Record<string, Entry[]>;
  } | null;
  const events = Object.keys(parsed?.hooks ?? {});
  const entries = parsed?.hooks?.preToolUse ?? [];
  const ours =
    parsed?.version === 1 &&
    events.length === 1 &&
    events[0] === "preToolUse" &&
    entries.length > 0 &&
    entries.every((e) => isPlangateHook(e.bash, "copilot"));
  if (!ours) throw new Error(`${file} holds hooks that plangate did not write`);
  return entries.find((e) => e.matcher === COPILOT_PLAN_TOOL) ?? null;
}

function check(file: string, project: string): number {
  let hook: Entry | null = null;
  try {
    hook = readOurs(file);
  } catch {}
  return reportChecks([
    hook
      ? { ok: true, line: `${file} has Plangate's hook for exit_plan_mode (timeout ${hook.timeoutSec} s)` }
      : { ok: false, line: `${file} has no Plangate hook: run plangate connect copilot` },
    isConnected("copilot", project)
      ? { ok: true, line: `${project} is connected` }
      : { ok: false, line: `${project} is not connected: the hook answers there as if it were not installed` },
    ...(hook?.bash ? [runHookCheck(hook.bash, project)] : []),
  ]);
}

export async function run(args: string[]): Promise<number> {
  const r = userHookRequest(args, USAGE, MAX_TIMEOUT_SEC);
  if (typeof r === "number") return r;
  const { opts, url, scope, timeoutSec, project } = r;
  const file = path.join(copilotHome(), "hooks", "plangate.json");
  if (opts.check) return check(file, project);
  try {
    readOurs(file);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  const told = await userHookToken(r, "copilot");
  if (told === null) return 1;
  const connected = setConnected("copilot", scope === "user" ? { all: true } : { project }, opts.remove === true);
  if (opts.remove) {
    if ((scope === "user" || connected.none) && fs.existsSync(file)) {
      fs.rmSync(file);
      console.log(`plangate: removed ${file}`);
    }
    console.log(`plangate: connected: ${connected.words}`);
    return 0;
  }
  // The hook gives up a minute before Copilot would stop waiting (which Copilot counts as an approval).
  const command = hookCommand(selfPath(), "copilot", url, ["--deadline", String(timeoutSec - 60)]);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    `${JSON.stringify(copilotHooksFile({ command, timeoutSec, asks: opts.asks === true }), null, 2)}\n`,
  );
  console.log(
    `plangate: ${file}: preToolUse hooks for exit_plan_mode and Copilot's shell and write tools (refused until a plan is approved${opts.asks ? ", then asked on the desk" : ""}) → ${url} (timeout ${timeoutSec} s)`,
  );
  console.log(`plangate: connected: ${connected.words}`);
  for (const line of told) console.log(`plangate: ${line}`);
  return 0;
}
