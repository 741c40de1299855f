// `plangate connect gemini [--url URL] [--email EMAIL | --token TOKEN] [--scope project|user] [--timeout SECONDS]
// [--asks] [--check] [--remove]`: Gemini CLI runs hooks from the user's settings (project hooks are off in folders
// it does not trust), so the hook goes into ~/.gemini/settings.json, and this project (or, with --scope user,
// every project) is recorded as connected; elsewhere the hook answers as if it were not there.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyEdits, modify, parse } from "jsonc-parser";
import { geminiPlanHook, geminiTrusts, withGeminiHooks, type GeminiHooks } from "../lib/external/gemini-settings";
import { hookCommand } from "../lib/external/hook-command";
import { hooksIn, readJsonSettings } from "./json-settings";
import { userHookRequest, userHookToken } from "./connect-user-hook";
import { setConnected, isConnected } from "./connections";
import { reportChecks, runHookCheck } from "./hook-check";
import { selfPath } from "./self";

const USAGE =
  "usage: plangate connect gemini [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks] [--check] [--remove]";
// Gemini counts hook timeouts in ms and treats a value past 2^31-1 as no time at all.
const MAX_TIMEOUT_SEC = 2_000_000;

const geminiDir = () => path.join(process.env.GEMINI_CLI_HOME || os.homedir(), ".gemini");

function readSettings(file: string): { text: string; hooks: GeminiHooks } {
  const { text, value } = readJsonSettings(file);
  return { text, hooks: hooksIn(value) as GeminiHooks };
}

/** Whether Gemini trusts the project (its hooks do not run in a folder it does not trust), in words. */
function trustLine(project: string): { ok: boolean; line: string } {
  const env = process.env.GEMINI_CLI_TRUST_WORKSPACE;
  if (env === "true") return { ok: true, line: "Gemini trusts this folder (GEMINI_CLI_TRUST_WORKSPACE=true)" };
  const file = process.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || path.join(geminiDir(), "trustedFolders.json");
  let rules: Record<string, unknown> = {};
  try {
    rules = (parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>) ?? {};
  } catch {}
  const trusted = env === "false" ? false : geminiTrusts(rules, project);
  return trusted
    ? { ok: true, line: `Gemini trusts ${project} (${file})` }
    : {
        ok: false,
        line: `Gemini does not trust ${project}, so no hook runs there: trust the folder when Gemini asks, or add "${project}": "TRUST_FOLDER" to ${file}`,
      };
}

function check(url: string, file: string, project: string): number {
  const lines: { ok: boolean; line: string }[] = [];
  const hook = geminiPlanHook(readSettings(file).hooks);
  lines.push(
    hook
      ? { ok: true, line: `${file} has Plangate's hook for exit_plan_mode (timeout ${hook.timeout} ms)` }
      : { ok: false, line: `${file} has no Plangate hook: run plangate connect gemini` },
  );
  lines.push(
    isConnected("gemini", project)
      ? { ok: true, line: `${project} is connected` }
      : { ok: false, line: `${project} is not connected: the hook answers there as if it were not installed` },
  );
  lines.push(trustLine(project));
  if (hook?.command) lines.push(runHookCheck(hook.command, project));
  return reportChecks(lines);
}

export async function run(args: string[]): Promise<number> {
  const r = userHookRequest(args, USAGE, MAX_TIMEOUT_SEC);
  if (typeof r === "number") return r;
  const { opts, url, scope, timeoutSec, project } = r;
  const file = path.join(geminiDir(), "settings.json");
  if (opts.check) return check(url, file, project);
  let settings: ReturnType<typeof readSettings>;
  try {
    settings = readSettings(file);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  const told = await userHookToken(r, "gemini");
  if (told === null) return 1;
  // The hook gives up a minute before Gemini would stop waiting (which Gemini counts as an approval).
  const command = hookCommand(selfPath(), "gemini", url, ["--deadline", String(timeoutSec - 60)]);
  const target = scope === "user" ? ({ all: true } as const) : { project };
  const connected = setConnected("gemini", target, opts.remove === true);
  const hooks = withGeminiHooks(settings.hooks, {
    command,
    timeoutMs: timeoutSec * 1000,
    asks: opts.asks === true,
    remove: opts.remove === true && (scope === "user" || connected.none),
  });
  let text = settings.text;
  for (const key of ["BeforeTool", "AfterTool"] as const)
    text = applyEdits(
      text,
      modify(text, ["hooks", key], hooks[key].length ? hooks[key] : undefined, {
        formattingOptions: { insertSpaces: true, tabSize: 2 },
      }),
    );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (text !== settings.text) fs.writeFileSync(file, text.endsWith("\n") ? text : `${text}\n`);
  console.log(
    `plangate: ${file}: ${opts.remove ? "updated" : `BeforeTool and AfterTool hooks for exit_plan_mode${opts.asks ? " and Gemini's write and shell tools" : ""} → ${url} (timeout ${timeoutSec} s)`}`,
  );
  console.log(`plangate: connected: ${connected.words}`);
  for (const line of told) console.log(`plangate: ${line}`);
  if (!opts.remove) {
    const trust = trustLine(project);
    if (!trust.ok) console.log(`plangate: note: ${trust.line}`);
    console.log(
      "plangate: note: an approval in a headless run (gemini -p) switches Gemini to YOLO mode (every tool call allowed); in a terminal Gemini's own dialog then asks which mode to go on in",
    );
  }
  return 0;
}
