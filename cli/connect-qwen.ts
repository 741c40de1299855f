// `plangate connect qwen [--url URL] [--email EMAIL | --token TOKEN] [--scope project|user] [--timeout SECONDS]
// [--asks] [--check] [--remove]`: Qwen Code runs hooks from the user's settings in every project (a project's own
// only in a folder it trusts), so the hooks go into ~/.qwen/settings.json, merged with what is there, and this
// project (or, with --scope user, every project) is recorded as connected; elsewhere the hook answers as if it were
// not there.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyEdits, modify } from "jsonc-parser";
import { hookCommand } from "../lib/external/hook-command";
import { type QwenHooks, qwenPlanHook, withQwenHooks } from "../lib/external/qwen-hook";
import { hooksIn, readJsonSettings } from "./json-settings";
import { userHookRequest, userHookToken } from "./connect-user-hook";
import { isConnected, setConnected } from "./connections";
import { reportChecks, runHookCheck } from "./hook-check";
import { selfPath } from "./self";

const USAGE =
  "usage: plangate connect qwen [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks] [--check] [--remove]";
// Qwen counts a timeout of 1000 or more in milliseconds; past 2^31-1 ms a timer fires at once.
const MAX_TIMEOUT_SEC = 2_000_000;

function readSettings(file: string): { text: string; hooks: QwenHooks } {
  const { text, value } = readJsonSettings(file);
  return { text, hooks: hooksIn(value) as QwenHooks };
}

function check(file: string, project: string): number {
  let hook: ReturnType<typeof qwenPlanHook> = null;
  try {
    hook = qwenPlanHook(readSettings(file).hooks);
  } catch {}
  return reportChecks([
    hook
      ? { ok: true, line: `${file} has Plangate's hooks for exit_plan_mode (timeout ${hook.timeout} ms)` }
      : { ok: false, line: `${file} has no Plangate hook: run plangate connect qwen` },
    isConnected("qwen", project)
      ? { ok: true, line: `${project} is connected` }
      : { ok: false, line: `${project} is not connected: the hook answers there as if it were not installed` },
    ...(hook?.command ? [runHookCheck(hook.command, project)] : []),
  ]);
}

export async function run(args: string[]): Promise<number> {
  const r = userHookRequest(args, USAGE, MAX_TIMEOUT_SEC);
  if (typeof r === "number") return r;
  const { opts, url, scope, timeoutSec, project } = r;
  const file = path.join(os.homedir(), ".qwen", "settings.json");
  if (opts.check) return check(file, project);
  let settings: ReturnType<typeof readSettings>;
  try {
    settings = readSettings(file);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  const told = await userHookToken(r, "qwen");
  if (told === null) return 1;
  // The hook gives up a minute before Qwen would stop waiting.
  const command = hookCommand(selfPath(), "qwen", url, ["--deadline", String(timeoutSec - 60)]);
  const connected = setConnected("qwen", scope === "user" ? { all: true } : { project }, opts.remove === true);
  const hooks = withQwenHooks(settings.hooks, {
    command,
    timeoutMs: timeoutSec * 1000,
    asks: opts.asks === true,
    remove: opts.remove === true && (scope === "user" || connected.none),
  });
  let text = settings.text;
  for (const key of ["PermissionRequest", "PreToolUse", "PostToolUse"] as const)
    text = applyEdits(
      text,
      modify(text, ["hooks", key], hooks[key].length ? hooks[key] : undefined, {
        formattingOptions: { insertSpaces: true, tabSize: 2 },
      }),
    );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (text !== settings.text) fs.writeFileSync(file, text.endsWith("\n") ? text : `${text}\n`);
  console.log(
    `plangate: ${file}: ${opts.remove ? "updated" : `hooks for exit_plan_mode${opts.asks ? " and Qwen's write and shell tools" : ""} → ${url} (timeout ${timeoutSec} s)`}`,
  );
  console.log(`plangate: connected: ${connected.words}`);
  for (const line of told) console.log(`plangate: ${line}`);
  if (!opts.remove)
    console.log(
      "plangate: note: after an approval on the desk, Qwen's own prompt still asks which mode to go on in (an editor over ACP answers it)",
    );
  return 0;
}
