// `plangate connect claude-code [--url URL] [--token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks] [--remove]`:
// writes (or takes out) the hook that sends Claude Code's plans to Plangate's desk, merging with the settings
// already there, and prints what changed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { withPlangateHook, type ClaudeSettings } from "../lib/external/claude-settings";
import { callServer, DEFAULT_URL, options, saveToken } from "./client";

const BIN = path.resolve(import.meta.dirname, "..", "bin", "plangate.mjs");

function readSettings(file: string): ClaudeSettings {
  if (!fs.existsSync(file)) return {};
  const parsed: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(`${file} is not a JSON object`);
  return parsed as ClaudeSettings;
}

export async function run(args: string[]): Promise<number> {
  const opts = options(args, ["remove", "asks"]);
  const url = String(opts.url ?? DEFAULT_URL).replace(/\/+$/, "");
  const scope = String(opts.scope ?? "project");
  if (scope !== "project" && scope !== "user") {
    console.error("plangate: --scope is project or user");
    return 2;
  }
  const timeoutSec = Number(opts.timeout ?? 3600);
  if (!Number.isInteger(timeoutSec) || timeoutSec < 60) {
    console.error("plangate: --timeout is a whole number of seconds, at least 60 (a person needs time to read the plan)");
    return 2;
  }
  const dir = scope === "user" ? (process.env.CLAUDE_CONFIG_DIR ?? path.join(os.homedir(), ".claude")) : path.join(process.cwd(), ".claude");
  const file = path.join(dir, "settings.json");
  let before: ClaudeSettings;
  try {
    before = readSettings(file);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  const command = `node "${BIN}" hook claude-code --url ${url}`;
  const after = withPlangateHook(before, { command, timeoutSec, asks: opts.asks === true, remove: opts.remove === true });
  if (JSON.stringify(after) === JSON.stringify(before)) {
    console.log(`plangate: ${file} already ${opts.remove ? "has no Plangate hook" : "has this hook"}; nothing changed`);
    return 0;
  }
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(after, null, 2)}\n`);
  if (opts.remove) {
    console.log(`plangate: took Plangate's hook out of ${file}`);
    return 0;
  }
  console.log(`plangate: ${file}: PermissionRequest hook for ExitPlanMode${opts.asks ? " and permission asks" : ""} → ${url} (timeout ${timeoutSec} s)`);
  if (typeof opts.token === "string" && opts.token) console.log(`plangate: token saved in ${saveToken(url, opts.token)} (not in the settings)`);
  const health = await callServer(url, "GET", "/api/health").catch(() => null);
  if (!health || health.status !== 200) console.log(`plangate: note: ${url} does not answer yet; start Plangate (npm start) before Claude Code asks for a plan review`);
  return 0;
}
