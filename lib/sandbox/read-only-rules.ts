/** A command argument: `text` is its value when it cannot change at run time, else null. */
export type Arg = { text: string | null; raw: string };

/** Judges one allowlisted command's arguments: null = read-only, else why not. */
export type ArgCheck = (args: Arg[]) => string | null;

/** Does a short-option cluster ("-uo") contain one of `danger`? Scanning stops at an option that takes a value. */
export function shortFlag(arg: string, danger: string, takesValue: string): boolean {
  if (!arg.startsWith("-") || arg.startsWith("--")) return false;
  for (const ch of arg.slice(1)) {
    if (danger.includes(ch)) return true;
    if (takesValue.includes(ch)) return false;
  }
  return false;
}

/** Is `arg` one of `names` as a long option, abbreviated or not (getopt and git accept unique prefixes)? */
export function longPrefix(arg: string, names: readonly string[]): boolean {
  if (!arg.startsWith("--") || arg.length === 2) return false;
  const eq = arg.indexOf("=");
  const name = arg.slice(2, eq === -1 ? undefined : eq);
  return names.some((n) => n.startsWith(name));
}

/** Operands (non-options) in a getopt-style argument list, skipping option values. */
export function countOperands(args: string[], shortWithValue: string, longWithValue: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--") return count + args.length - i - 1;
    if (a === "-" || !a.startsWith("-")) {
      count++;
    } else if (a.startsWith("--")) {
      if (!a.includes("=") && longPrefix(a, longWithValue)) i++;
    } else {
      const at = [...a.slice(1)].findIndex((ch) => shortWithValue.includes(ch));
      // "-f" alone takes the next argument as its value; "-f2" carries it.
      if (at !== -1 && at === a.length - 2) i++;
    }
  }
  return count;
}

const GIT_DIR_OPTIONS = ["-C", "-c", "--git-dir", "--work-tree", "--exec-path", "--namespace", "--config-env"];
const GIT_SAFE_GLOBALS = new Set([
  "--no-pager",
  "-P",
  "--no-optional-locks",
  "--literal-pathspecs",
  "--no-replace-objects",
  "--version",
]);
const GIT_READERS = new Set([
  "status",
  "log",
  "diff",
  "show",
  "rev-parse",
  "ls-files",
  "blame",
  "grep",
  "describe",
  "shortlog",
]);
const GIT_BRANCH_LISTING = new Set([
  "-a",
  "-r",
  "-v",
  "-vv",
  "--list",
  "--show-current",
  "--all",
  "--remotes",
  "--verbose",
]);

function gitReader(sub: string, args: string[]): string | null {
  for (const a of args) {
    // --output writes a file; external diff drivers and a pager are arbitrary programs.
    const writes =
      longPrefix(a, ["output", "ext-diff", "open-files-in-pager"]) || (sub === "grep" && shortFlag(a, "O", "efABCm"));
    if (writes) return `git ${sub} ${a} writes a file or runs a program`;
  }
  return null;
}

function gitConfig(args: string[]): string | null {
  const options = args.filter((a) => a.startsWith("-"));
  const operands = args.length - options.length;
  const refusal = `git config ${args.join(" ")} can change the configuration (only --get, --list and -l are allowed)`;
  if (options.length === 0 || options.some((o) => o !== "--get" && o !== "--list" && o !== "-l")) return refusal;
  const listing = options.some((o) => o !== "--get");
  return (listing ? operands === 0 : operands >= 1 && operands <= 2) ? null : refusal;
}

/** git: only subcommands that read, and no global option that points git at other directories or config. */
export function checkGit(args: string[]): string | null {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] ?? "";
    if (!a.startsWith("-")) break;
    const name = a.split("=")[0] ?? a;
    if (GIT_DIR_OPTIONS.includes(name)) return `git ${name} changes the directory or configuration git uses`;
    if (!GIT_SAFE_GLOBALS.has(a)) return `git option ${a} is not allowed`;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined) return null;
  if (GIT_READERS.has(sub)) return gitReader(sub, rest);
  if (sub === "branch") {
    return rest.every((a) => GIT_BRANCH_LISTING.has(a)) ? null : `git branch ${rest.join(" ")} can change branches`;
  }
  if (sub === "remote") {
    return rest.every((a) => a === "-v" || a === "--verbose")
      ? null
      : `git remote ${rest.join(" ")} can change remotes`;
  }
  if (sub === "config") return gitConfig(rest);
  return `"git ${sub}" is not a read-only command`;
}
