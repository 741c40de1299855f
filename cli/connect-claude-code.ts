// `plangate connect claude-code [--url URL] [--email EMAIL | --token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks] [--check] [--remove]`:
// writes (or takes out) the hook that sends Claude Code's plans to Plangate's desk, merging with the settings
// already there, and prints what changed; --check runs the hook as Claude Code would and says what it reached.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { plangatePlanHook, withPlangateHook, type ClaudeSettings } from "../lib/external/claude-settings";
import { callServer } from "./client";
import { provideToken, TOKEN_OPTIONS } from "./agent-token";
import { optionsOrUsage } from "./options";
import { CliError, readProjectFile, urlOption, writeProjectFile } from "./project-file";
import { hookCommand } from "../lib/external/hook-command";
import { selfPath } from "./self";
import { reportChecks, runHookCheck } from "./hook-check";

const USAGE =
  "usage: plangate connect claude-code [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks] [--check] [--remove]";
const OPTIONS = {
  url: { type: "string" },
  ...TOKEN_OPTIONS,
  scope: { type: "string" },
  timeout: { type: "string" },
  asks: { type: "boolean" },
  check: { type: "boolean" },
  remove: { type: "boolean" },
} as const;

function parseSettings(file: string, text: string | undefined): ClaudeSettings {
  if (text === undefined) return {};
  const parsed: unknown = JSON.parse(text);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(`${file} is not a JSON object`);
  return parsed as ClaudeSettings;
}

/**
 * The settings file and how to read and write it. In the project (a repository, untrusted) `.claude` and the
 * file must be real, inside the project, and are written through a rename: a planted link is refused, never
 * followed. The user's own folder is theirs (a dotfiles link there is kept and followed).
 */
function settingsFile(scope: "project" | "user") {
  if (scope === "user") {
    const file = path.join(process.env.CLAUDE_CONFIG_DIR ?? path.join(os.homedir(), ".claude"), "settings.json");
    return {
      file,
      read: () => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined),
      write: (text: string) => {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, text);
      },
    };
  }
  const root = fs.realpathSync(process.cwd());
  const file = path.join(root, ".claude", "settings.json");
  return { file, read: () => readProjectFile(root, file), write: (text: string) => writeProjectFile(root, file, text) };
}

export async function run(args: string[]): Promise<number> {
  const opts = optionsOrUsage(args, OPTIONS, USAGE);
  if (opts === null) return 2;
  const url = urlOption(opts.url);
  if (url === null) return 2;
  const scope = String(opts.scope ?? "project");
  if (scope !== "project" && scope !== "user") {
    console.error("plangate: --scope is project or user");
    return 2;
  }
  const timeoutSec = Number(opts.timeout ?? 3600);
  if (!Number.isInteger(timeoutSec) || timeoutSec < 60) {
    console.error(
      "plangate: --timeout is a whole number of seconds, at least 60 (a person needs time to read the plan)",
    );
    return 2;
  }
  const target = settingsFile(scope);
  const { file } = target;
  let before: ClaudeSettings;
  try {
    before = parseSettings(file, target.read());
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  // Claude Code runs this through a shell: every word is quoted.
  const command = hookCommand(selfPath(), "claude-code", url);
  if (opts.check) {
    // The settings may be the repository's: their command is compared, never run; the hook run is Plangate's own.
    const hook = plangatePlanHook(before);
    const same = hook?.command === command;
    return reportChecks([
      !hook
        ? { ok: false, line: `${file} has no Plangate hook: run plangate connect claude-code` }
        : same
          ? { ok: true, line: `${file} has Plangate's hook for ExitPlanMode (timeout ${hook.timeout ?? 600} s)` }
          : { ok: false, line: `${file} runs another hook command than this plangate would: run connect again` },
      runHookCheck(command, process.cwd()),
    ]);
  }
  const after = withPlangateHook(before, {
    command,
    timeoutSec,
    asks: opts.asks === true,
    remove: opts.remove === true,
  });
  let told: string[] = [];
  if (!opts.remove)
    try {
      told = await provideToken(url, "claude-code", opts);
    } catch (error) {
      console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
      return 1;
    }
  if (JSON.stringify(after) === JSON.stringify(before)) {
    for (const line of told) console.log(`plangate: ${line}`);
    console.log(`plangate: ${file} already ${opts.remove ? "has no Plangate hook" : "has this hook"}; nothing changed`);
    return 0;
  }
  try {
    target.write(`${JSON.stringify(after, null, 2)}\n`);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    console.error(`plangate: ${error.message}; nothing was changed`);
    return 1;
  }
  if (opts.remove) {
    console.log(`plangate: took Plangate's hook out of ${file}`);
    return 0;
  }
  console.log(
    `plangate: ${file}: PermissionRequest hook for ExitPlanMode${opts.asks ? " and permission asks" : ""} → ${url} (timeout ${timeoutSec} s)`,
  );
  for (const line of told) console.log(`plangate: ${line}`);
  const health = await callServer(url, "GET", "/api/health").catch(() => null);
  if (!health || health.status !== 200)
    console.log(
      `plangate: note: ${url} does not answer yet; start Plangate (npm start) before Claude Code asks for a plan review`,
    );
  return 0;
}
