// `plangate connect codex [--url URL] [--email EMAIL | --token TOKEN] [--scope project|user] [--timeout SECONDS]
// [--asks] [--check] [--remove]`: the hook goes into Codex's user hooks ($CODEX_HOME/hooks.json, which Codex runs in
// every project, trusted or not), its trust into $CODEX_HOME/config.toml the way Codex records it (Codex skips a
// hook without it, silently), and this project (or every one, --scope user) is recorded as connected.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { recordedHash, withTrustedHooks } from "../lib/external/codex-config-toml";
import { type CodexHooksFile, plangateHookStates, withCodexHooks } from "../lib/external/codex-hooks-file";
import { hookCommand } from "../lib/external/hook-command";
import { userHookRequest, userHookToken } from "./connect-user-hook";
import { isConnected, setConnected } from "./connections";
import { reportChecks, runHookCheck } from "./hook-check";
import { selfPath } from "./self";

const USAGE =
  "usage: plangate connect codex [--url URL] [--email EMAIL [--password-stdin] | --token TOKEN] [--scope project|user] [--timeout SECONDS] [--asks] [--check] [--remove]";
const MAX_TIMEOUT_SEC = 7 * 24 * 3600;

/** $CODEX_HOME as Codex resolves it (links followed): the trust keys name the real path. */
function codexHome(): string {
  const home = process.env.CODEX_HOME || path.join(os.homedir(), ".codex");
  fs.mkdirSync(home, { recursive: true });
  return fs.realpathSync(home);
}

function readHooks(file: string): CodexHooksFile {
  if (!fs.existsSync(file)) return {};
  const parsed: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(`${file} is not a JSON object`);
  return parsed as CodexHooksFile;
}

function check(hooksFile: string, configFile: string, project: string): number {
  const lines: { ok: boolean; line: string }[] = [];
  const states = plangateHookStates(readHooks(hooksFile), hooksFile);
  lines.push(
    states.length > 0
      ? { ok: true, line: `${hooksFile} has Plangate's hooks (${states.length})` }
      : { ok: false, line: `${hooksFile} has no Plangate hook: run plangate connect codex` },
  );
  const toml = fs.existsSync(configFile) ? fs.readFileSync(configFile, "utf8") : "";
  for (const s of states)
    lines.push(
      recordedHash(toml, s.key) === s.hash
        ? { ok: true, line: `Codex trusts ${s.key} (${configFile})` }
        : { ok: false, line: `Codex does not trust ${s.key} and skips it silently: run plangate connect codex again` },
    );
  lines.push(
    isConnected("codex", project)
      ? { ok: true, line: `${project} is connected (Codex runs user hooks whether or not it trusts the project)` }
      : { ok: false, line: `${project} is not connected: the hook answers there as if it were not installed` },
  );
  const stop = readHooks(hooksFile).hooks?.Stop;
  const command = Array.isArray(stop)
    ? (stop as { hooks?: { command?: string }[] }[])
        .flatMap((g) => g.hooks ?? [])
        .find((h) => h.command?.includes("' hook codex "))?.command
    : undefined;
  if (command) lines.push(runHookCheck(command, project));
  return reportChecks(lines);
}

export async function run(args: string[]): Promise<number> {
  const r = userHookRequest(args, USAGE, MAX_TIMEOUT_SEC);
  if (typeof r === "number") return r;
  const { opts, url, scope, timeoutSec, project } = r;
  const home = codexHome();
  const hooksFile = path.join(home, "hooks.json");
  const configFile = path.join(home, "config.toml");
  if (opts.check) return check(hooksFile, configFile, project);
  const toml = fs.existsSync(configFile) ? fs.readFileSync(configFile, "utf8") : "";
  // The hook gives up a minute before Codex would stop waiting (which Codex counts as the turn ending normally).
  const command = hookCommand(selfPath(), "codex", url, ["--deadline", String(timeoutSec - 60)]);
  const variant = (before: CodexHooksFile, remove: boolean) => {
    const after = withCodexHooks(before, { command, timeoutSec, asks: opts.asks === true, remove });
    const old = plangateHookStates(before, hooksFile).map((s) => s.key);
    return { after, trusted: withTrustedHooks(toml, old, plangateHookStates(after, hooksFile), configFile) };
  };
  // Both files' new text before anything is written or asked (a token, the connections): a file refused changes
  // nothing. Whether the hooks come out is known only once the connections say no project is left.
  let adding: ReturnType<typeof variant>;
  let taking: ReturnType<typeof variant> | undefined;
  try {
    const before = readHooks(hooksFile);
    adding = variant(before, false);
    if (opts.remove) taking = variant(before, true);
  } catch (error) {
    console.error(`plangate: ${error instanceof Error ? error.message : String(error)}; nothing was changed`);
    return 1;
  }
  const told = await userHookToken(r, "codex");
  if (told === null) return 1;
  const connected = setConnected("codex", scope === "user" ? { all: true } : { project }, opts.remove === true);
  const removing = opts.remove === true && (scope === "user" || connected.none);
  const { after, trusted } = removing && taking ? taking : adding;
  fs.writeFileSync(hooksFile, `${JSON.stringify(after, null, 2)}\n`);
  fs.writeFileSync(configFile, trusted);
  if (removing) console.log(`plangate: took Plangate's hooks out of ${hooksFile} and their trust out of ${configFile}`);
  else
    console.log(
      `plangate: ${hooksFile}: Stop hook${opts.asks ? " and PermissionRequest hook for the shell" : ""} → ${url} (timeout ${timeoutSec} s); trusted in ${configFile} as Codex records it ([hooks.state] trusted_hash), since Codex skips untrusted hooks silently`,
    );
  console.log(`plangate: connected: ${connected.words}`);
  for (const line of told) console.log(`plangate: ${line}`);
  if (!removing)
    console.log(
      "plangate: note: Codex's plan mode (Shift+Tab in its terminal, or collaborationMode plan in codex app-server) ends its turn with the plan; an approval only lets the turn end, and you go on in Codex",
    );
  return 0;
}
