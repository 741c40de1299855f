import type { GitConfigEntry } from "./git-config-parse";

/*
 * Which git settings make git take something from the working tree by itself, as git-config(1) and the tools that
 * read git's config (git-lfs) define them. Keys are matched as `section.name` or `section.subsection.name`, with
 * section and name lower-cased (git compares them without case) and the subsection lower-cased for matching only.
 */

/** A command git (or git-lfs) runs by itself: every word of the value that could name a file is control. */
const PROGRAM: readonly RegExp[] = [
  /^core\.(fsmonitor|editor|pager|sshcommand|askpass|gitproxy|alternaterefscommand)$/,
  /^sequence\.editor$/,
  /^interactive\.difffilter$/,
  /^pager\.[^.]+$/,
  /^gpg\.program$/,
  /^gpg\.[^.]+\.program$/,
  /^gpg\.ssh\.defaultkeycommand$/,
  /^diff\.external$/,
  /^diff\..+\.(command|textconv)$/,
  /^difftool\..+\.(cmd|path)$/,
  /^merge\..+\.driver$/,
  /^mergetool\..+\.(cmd|path)$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^credential\.(.+\.)?helper$/,
  /^uploadpack\.packobjectshook$/,
  /^remote\..+\.(uploadpack|receivepack)$/,
  /^trailer\..+\.(command|cmd)$/,
  /^hook\..+\.command$/,
  /^web\.browser$/,
  /^browser\..+\.(cmd|path)$/,
  /^man\.viewer$/,
  /^man\..+\.(cmd|path)$/,
  /^sendemail\.(.+\.)?(sendmailcmd|smtpserver|tocmd|cccmd|headercmd)$/,
  /^guitool\..+\.cmd$/,
  /^instaweb\.httpd$/,
  /^lfs\.customtransfer\..+\.path$/,
  /^lfs\.extension\..+\.(clean|smudge)$/,
];

/** A command only when the value starts with `!` (otherwise a git command or a mode name). */
const BANG_PROGRAM: readonly RegExp[] = [/^alias\.[^.]+$/, /^submodule\..+\.update$/];

/** A folder git takes files from: hooks it runs, templates it copies into new repositories (with their hooks). */
const FOLDER: readonly RegExp[] = [/^core\.hookspath$/, /^init\.templatedir$/];

/** Another config file git reads (whatever includeIf's condition, which may hold later). */
const INCLUDE: readonly RegExp[] = [/^include\.path$/, /^includeif\..+\.path$/];

/** git's boolean words: `core.fsmonitor = true` is git's own daemon, `pager.log = false` no pager. */
const BOOLEAN = /^(true|false|yes|no|on|off|1|0)$/i;

export type GitSetting =
  | { kind: "include"; value: string }
  | { kind: "folder"; value: string }
  | { kind: "worktree"; value: string }
  | { kind: "program"; value: string };

const key = (e: GitConfigEntry): string =>
  e.subsection === null ? `${e.section}.${e.name}` : `${e.section}.${e.subsection.toLowerCase()}.${e.name}`;

/** What one config entry makes git take from the files around it, or null. */
export function gitSetting(entry: GitConfigEntry): GitSetting | null {
  const value = entry.value;
  if (value === null || value.trim() === "") return null;
  const k = key(entry);
  if (INCLUDE.some((re) => re.test(k))) return { kind: "include", value };
  if (FOLDER.some((re) => re.test(k))) return { kind: "folder", value };
  if (k === "core.worktree") return { kind: "worktree", value };
  if (BOOLEAN.test(value.trim())) return null;
  // `credential.helper = !f() { …; }; f`: a shell snippet, as an alias's.
  if (PROGRAM.some((re) => re.test(k))) return { kind: "program", value: value.replace(/^!/, "") };
  if (value.startsWith("!") && BANG_PROGRAM.some((re) => re.test(k))) return { kind: "program", value: value.slice(1) };
  return null;
}
