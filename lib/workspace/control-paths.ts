import fs from "node:fs";
import path from "node:path";

/**
 * Folders whose files steer an agent, an editor, git or Plangate itself: whoever writes them can grant
 * themselves rights (`.plangate/config.json`), run code on the next `git status` (`.git/config`) or on the
 * person's next editor or agent start. A write there always asks a person (bypassPermissions aside).
 */
export const CONTROL_DIRS: readonly string[] = [
  ".plangate", ".git", ".claude", ".opencode", ".vscode", ".idea", ".cursor", ".gemini", ".codex", ".husky", ".devcontainer",
];

/** Files that a shell, a package manager or an agent reads as configuration when it starts in the workspace. */
export const CONTROL_FILES: readonly string[] = [
  ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin",
  ".envrc", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmrc", ".mcp.json", ".gitmodules", ".pythonrc", ".inputrc",
];

const DIRS = new Set(CONTROL_DIRS);
const FILES = new Set(CONTROL_FILES);

/** Is this workspace-relative POSIX path (or any folder above it) a control file? "." is the workspace itself. */
export function isControlPath(relative: string): boolean {
  const parts = relative.split("/").filter((p) => p !== "" && p !== ".");
  const last = parts.length - 1;
  return parts.some((part, i) => DIRS.has(part) || (i === last && FILES.has(part)));
}

/**
 * The control entries at the top of a workspace that exist now, as absolute paths. The write sandbox mounts
 * them read-only over the writable workspace, so a command allowed by a rule cannot rewrite them. Inside
 * `.git` only the parts that run code or hold settings are protected: commits still write objects and refs.
 */
export function protectedMounts(workspace: string): string[] {
  // A link is skipped, never followed: binding its target would show that host path inside the sandbox.
  const real = (p: string): fs.Stats | null => {
    try {
      const stat = fs.lstatSync(p);
      return stat.isSymbolicLink() ? null : stat;
    } catch {
      return null;
    }
  };
  const out: string[] = [];
  for (const name of [...CONTROL_DIRS, ...CONTROL_FILES]) {
    const full = path.join(workspace, name);
    const stat = real(full);
    if (stat === null) continue;
    if (name === ".git" && stat.isDirectory()) {
      for (const part of ["config", "hooks", "info"]) {
        const inner = `${full}/${part}`;
        if (real(inner) !== null) out.push(inner);
      }
    } else {
      out.push(full);
    }
  }
  return out;
}
