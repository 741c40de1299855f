// `plangate connect droid [--url URL] [--email EMAIL | --token TOKEN] [--scope project|user] [--timeout SECONDS]
// [--asks] [--check] [--remove]`: the hooks go into ~/.factory/hooks.json (Droid runs them in every project), merged
// with what is there, and this project (or, with --scope user, every project) is recorded as connected; elsewhere
// the hook answers as if it were not there.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyEdits, modify } from "jsonc-parser";
import { type DroidHooks, droidPlanHook, withDroidHooks } from "../lib/external/droid-hook";
import { hookCommand } from "../lib/external/hook-command";
import { readJsonSettings } from "./json-settings";
import { userHookRequest, userHookToken } from "./connect-user-hook";
import { isConnected, setConnected } from "./connections";
import { reportChecks, runHookCheck } from "./hook-check";
import { selfPath } from "./self";

const USAGE =
  "usage: plangate connect droid [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks] [--check] [--remove]";
const MAX_TIMEOUT_SEC = 7 * 24 * 3600;

const hooksFile = () => path.join(os.homedir(), ".factory", "hooks.json");

function readHooks(file: string): { text: string; hooks: DroidHooks } {
  const { text, value } = readJsonSettings(file);
  return { text, hooks: value as DroidHooks };
}

function check(file: string, project: string): number {
  let hook: ReturnType<typeof droidPlanHook> = null;
  try {
    hook = droidPlanHook(readHooks(file).hooks);
  } catch {}
  return reportChecks([
    hook
      ? { ok: true, line: `${file} has Plangate's hook for ExitSpecMode (timeout ${hook.timeout} s)` }
      : { ok: false, line: `${file} has no Plangate hook: run plangate connect droid` },
    isConnected("droid", project)
      ? { ok: true, line: `${project} is connected` }
      : { ok: false, line: `${project} is not connected: the hook answers there as if it were not installed` },
    ...(hook?.command ? [runHookCheck(hook.command, project)] : []),
  ]);
}

export async function run(args: string[]): Promise<number> {
  const r = userHookRequest(args, USAGE, MAX_TIMEOUT_SEC);
  if (typeof r === "number") return r;
  const { opts, url, scope, timeoutSec, project } = r;
  const file = hooksFile();
  if (opts.check) return check(file, project);
  let current: ReturnType<typeof readHooks>;
  try {
    current = readHooks(file);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  const told = await userHookToken(r, "droid");
  if (told === null) return 1;
  // The hook gives up a minute before Droid would stop waiting (which Droid counts as an approval).
  const command = hookCommand(selfPath(), "droid", url, ["--deadline", String(timeoutSec - 60)]);
  const connected = setConnected("droid", scope === "user" ? { all: true } : { project }, opts.remove === true);
  const hooks = withDroidHooks(current.hooks, {
    command,
    timeoutSec,
    asks: opts.asks === true,
    remove: opts.remove === true && (scope === "user" || connected.none),
  });
  let text = current.text;
  for (const key of ["PreToolUse", "PostToolUse"] as const)
    text = applyEdits(
      text,
      modify(text, [key], hooks[key].length ? hooks[key] : undefined, {
        formattingOptions: { insertSpaces: true, tabSize: 2 },
      }),
    );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (text !== current.text) fs.writeFileSync(file, text.endsWith("\n") ? text : `${text}\n`);
  console.log(
    `plangate: ${file}: ${opts.remove ? "updated" : `PreToolUse and PostToolUse hooks for ExitSpecMode${opts.asks ? " and Droid's shell and write tools" : ""} → ${url} (timeout ${timeoutSec} s)`}`,
  );
  console.log(`plangate: connected: ${connected.words}`);
  for (const line of told) console.log(`plangate: ${line}`);
  return 0;
}
