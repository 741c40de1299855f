/**
 * Programs that only read or show, or create empty things, whatever their further arguments: a rule
 * "ls *" can never grow into more than what "ls -la" was approved for. Everything else is saved exactly.
 * Wrappers and interpreters (env, timeout, nice, nohup, xargs, sudo, sh -c, python -c, node -e, npx, …),
 * find (-exec, -delete), sed (e, w), awk (system), and package scripts (npm test --script-shell) are never
 * here: their further arguments decide what runs.
 */
export const ANY_ARGUMENTS: ReadonlySet<string> = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "pwd",
  "echo",
  "which",
  "stat",
  "du",
  "df",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "uname",
  "whoami",
  "id",
  "true",
  "false",
  "sleep",
  "cmp",
  "nl",
  "sha256sum",
  "sha1sum",
  "md5sum",
  "grep",
  "egrep",
  "fgrep",
  "mkdir",
  "touch",
]);

/** Program + subcommand pairs with the same property. git's global options (-c, -C) come before the subcommand, so never match. */
export const SUBCOMMANDS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["git", new Set(["status", "add", "commit"])],
]);

/**
 * Whether a saved wildcard rule for a command is one this version would offer. Rules saved by older
 * versions ("env *", "bash *", "npm test *") are read as exact text instead, never as prefixes.
 */
export function isSafePrefixRule(pattern: string): boolean {
  const m = /^(\S+)(?: (\S+))? \*$/.exec(pattern);
  if (!m) return false;
  const [, program, sub] = m;
  if (program === undefined) return false;
  return sub === undefined ? ANY_ARGUMENTS.has(program) : SUBCOMMANDS.get(program)?.has(sub) === true;
}
