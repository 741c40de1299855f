import fs from "node:fs";
import path from "node:path";
import { getEnv } from "../env";
import { runCommand } from "../sandbox/run-command";
import { detectSandbox } from "../sandbox/detect-sandbox";
import type { Change } from "./match-plan";

// The repository's settings are untrusted: the agent (or whoever wrote the repository) may have put a filter,
// a textconv, an external diff, an fsmonitor or a hook in them. So git runs in the sandbox over a private git
// folder that shares only the repository's objects, and reads no configuration but that folder's own: not the
// system's (GIT_CONFIG_NOSYSTEM), not the user's (GIT_CONFIG_GLOBAL=/dev/null), not the repository's config or
// info/attributes. The object format is copied from the repository's config, read as a plain file (includes
// off). The work tree's .gitattributes still apply, but name drivers that no configuration defines.
const PRIVATE_GIT = [
  'ws="$PWD"',
  "g=$(mktemp -d /tmp/plangate-git.XXXXXX)",
  "trap 'rm -rf \"$g\"' EXIT",
  "export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_ATTR_NOSYSTEM=1 GIT_TERMINAL_PROMPT=0",
  // Read only from a regular file (not a link, FIFO or device), and only a known value is carried over.
  'fmt=""; if [ -f "$ws/.git/config" ] && [ ! -L "$ws/.git/config" ]; then fmt=$(cd / && git config --file "$ws/.git/config" --get extensions.objectformat 2>/dev/null || true); fi',
  'case "$fmt" in sha1|sha256) ;; *) fmt="" ;; esac',
  'mkdir -p "$g/refs" && printf "ref: refs/heads/plangate\\n" > "$g/HEAD"',
  'if [ -n "$fmt" ]; then printf "[core]\\n\\trepositoryformatversion = 1\\n[extensions]\\n\\tobjectformat = %s\\n" "$fmt"; else printf "[core]\\n\\trepositoryformatversion = 0\\n"; fi > "$g/config"',
  'export GIT_DIR="$g" GIT_WORK_TREE="$ws" GIT_OBJECT_DIRECTORY="$ws/.git/objects" GIT_INDEX_FILE="$g/index"',
  // The repository's own excludes (reading a list of patterns runs nothing), passed in the environment: a path with spaces stays one value.
  'if [ -f "$ws/.git/info/exclude" ] && [ ! -L "$ws/.git/info/exclude" ]; then export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.excludesFile GIT_CONFIG_VALUE_0="$ws/.git/info/exclude"; fi',
].join("\n");
const GIT = "git -c core.hooksPath=/dev/null -c core.fsmonitor=false -c core.pager=cat -c color.ui=false";

async function git(workspace: string, script: string, timeoutMs = 60_000): Promise<{ ok: boolean; output: string }> {
  const r = await runCommand({
    command: `${PRIVATE_GIT}\n${script}`,
    cwd: workspace,
    workspace,
    profile: { write: true, network: false },
    timeoutMs,
    sandbox: detectSandbox(),
  });
  return { ok: r.exitCode === 0 && !r.timedOut, output: r.output };
}

/** A git repository's own folder at the top of the workspace (an empty `.git` is not one). */
export function isGitWorkspace(workspace: string): boolean {
  return fs.existsSync(path.join(workspace, ".git", "HEAD"));
}

/**
 * The working tree as a git tree object (tracked and untracked files, .gitignore respected), written through
 * a private index so the user's index and files are untouched. Null outside a git repository.
 */
export async function snapshotTree(workspace: string): Promise<string | null> {
  if (!isGitWorkspace(workspace)) return null;
  // Background work (hashing every file of a large repository): at low priority, it does not hold up the
  // interactive work beside it, such as the decision it follows reaching the browser.
  const low = 'N=""; command -v nice >/dev/null 2>&1 && N="nice -n 10"';
  // Plangate's plans folder is left out: every session's plan file stays there, and they are no one's work.
  const own = ["':(top,exclude).plangate/plans'", ...ownInside(workspace).map((p) => `':(top,exclude,literal)${p}'`)];
  const r = await git(workspace, `${low}; $N ${GIT} add -A -- . ${own.join(" ")} >/dev/null && $N ${GIT} write-tree`);
  const tree = r.output.trim().split("\n").at(-1) ?? "";
  return r.ok && isTreeId(tree) ? tree : null;
}

/**
 * Plangate's folders inside a workspace (its data folder, when a workspace holds it), relative with "/": no
 * snapshot reads them. Only names of plain characters are passed to git (a quote would end its pathspec).
 */
export function ownInside(workspace: string): string[] {
  const rel = path.relative(workspace, getEnv().dataDir);
  if (!rel || rel.startsWith("..") || path.isAbsolute(rel) || !/^[\w./ -]+$/.test(rel)) return [];
  return [rel.split(path.sep).join("/")];
}

/** The same folders, absolute (for the manifest of a workspace without git). */
export function ownFolders(workspace: string): string[] {
  return ownInside(workspace).map((rel) => path.join(workspace, rel));
}

/** A git object id (SHA-1 or SHA-256), as opposed to a marker stored where a tree would be. */
export function isTreeId(value: string): boolean {
  return /^[0-9a-f]{40,64}$/.test(value);
}

const STATUS: Record<string, Change["status"]> = { A: "added", M: "modified", D: "deleted", T: "modified" };

/** What changed between two trees, per file, with its patch (no textconv, no external diff: nothing configured runs). */
export async function diffTrees(workspace: string, from: string, to: string): Promise<Omit<Change, "via">[]> {
  const names = await git(workspace, `${GIT} diff --no-renames --name-status ${from} ${to}`);
  if (!names.ok) return [];
  const patches = await git(workspace, `${GIT} diff --no-renames --no-ext-diff --no-textconv -U2 ${from} ${to}`);
  const byFile = new Map<string, string>();
  for (const block of patches.output.split(/^(?=diff --git )/m)) {
    const m = /^diff --git a\/(.+?) b\/(.+)$/m.exec(block);
    if (m) byFile.set(m[2]!, block);
  }
  return names.output
    .split("\n")
    .map((l) => /^([AMDT])\t(.+)$/.exec(l))
    .flatMap((m) => (m ? [{ path: m[2]!, status: STATUS[m[1]!] ?? "modified", patch: byFile.get(m[2]!) ?? "" }] : []));
}
