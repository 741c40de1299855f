import { spawnSync } from "node:child_process";

/**
 * Variables a command inherits from the server. An allowlist, not a filter of secret-looking names: the
 * server's environment holds API keys, tokens and database URLs under names no pattern can predict.
 */
const PASSED = new Set([
  "PATH",
  "LANG",
  "LANGUAGE",
  "TERM",
  "TZ",
  "USER",
  "LOGNAME",
  "SHELL",
  "COLORTERM",
  "NO_COLOR",
  "FORCE_COLOR",
  "CI",
]);

/**
 * Repository settings that run programs: the workspace's hooks, fsmonitor and pager. A command that a
 * person did not approve as written runs git with them switched off (environment config outranks the
 * repository's own), so a planted `.git/config` cannot turn an allowed `git status` into something else.
 */
export const GIT_SAFE_CONFIG: readonly [string, string][] = [
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
  ["core.pager", "cat"],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
];

let identity: Record<string, string> | null = null;

/** The person's git name and email from the host's config, so commits work while HOME and ~/.gitconfig stay hidden. */
function gitIdentity(): Record<string, string> {
  if (identity !== null) return identity;
  identity = {};
  const read = (key: string): string | null => {
    const r = spawnSync("git", ["config", "--global", "--get", key], { encoding: "utf8", timeout: 5_000 });
    const value = r.status === 0 ? r.stdout.trim() : "";
    return value === "" ? null : value;
  };
  const name = read("user.name");
  const email = read("user.email");
  if (name) Object.assign(identity, { GIT_AUTHOR_NAME: name, GIT_COMMITTER_NAME: name });
  if (email) Object.assign(identity, { GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_EMAIL: email });
  return identity;
}

export type EnvOptions = {
  write: boolean;
  /** The person approved this exact command: the workspace's own git settings apply. */
  asWritten: boolean;
  /** Extra variable names the operator lets through (PLANGATE_SANDBOX_ENV). */
  extraNames?: readonly string[];
  source?: NodeJS.ProcessEnv;
};

export function commandEnv(o: EnvOptions): Record<string, string> {
  const source = o.source ?? process.env;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (PASSED.has(key) || key.startsWith("LC_") || o.extraNames?.includes(key)) env[key] = value;
  }
  Object.assign(env, gitIdentity(), { GIT_PAGER: "cat", PAGER: "cat", GIT_TERMINAL_PROMPT: "0" });
  // git status would otherwise refresh .git/index.
  if (!o.write) env.GIT_OPTIONAL_LOCKS = "0";
  if (!o.asWritten) {
    env.GIT_CONFIG_COUNT = String(GIT_SAFE_CONFIG.length);
    GIT_SAFE_CONFIG.forEach(([key, value], i) => {
      env[`GIT_CONFIG_KEY_${i}`] = key;
      env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
  }
  return env;
}
