import fs from "node:fs";
import path from "node:path";
import { runCommand } from "../sandbox/run-command";
import { detectSandbox } from "../sandbox/detect-sandbox";
import type { Change } from "./match-plan";

// Repository config (hooks, fsmonitor, filters) is untrusted: the agent could have written it. Git runs in the
// same sandbox as the agent's own commands, with hooks and fsmonitor off.
const GIT = "git -c core.hooksPath=/dev/null -c core.fsmonitor=false -c core.pager=cat -c color.ui=false";

async function git(workspace: string, script: string, timeoutMs = 60_000): Promise<{ ok: boolean; output: string }> {
  const r = await runCommand({ command: script, cwd: workspace, workspace, profile: { write: true, network: false }, timeoutMs, sandbox: detectSandbox() });
  return { ok: r.exitCode === 0 && !r.timedOut, output: r.output };
}

export function isGitWorkspace(workspace: string): boolean {
  return fs.existsSync(path.join(workspace, ".git"));
}

/**
 * The working tree as a git tree object (tracked and untracked files, .gitignore respected), written through
 * a private index so the user's index and files are untouched. Null outside a git repository.
 */
export async function snapshotTree(workspace: string): Promise<string | null> {
  if (!isGitWorkspace(workspace)) return null;
  const index = `/tmp/plangate-index-${process.pid}-${Date.now()}`;
  // Background work (hashing every file of a large repository): at low priority, it does not hold up the
  // interactive work beside it, such as the decision it follows reaching the browser.
  const low = 'N=""; command -v nice >/dev/null 2>&1 && N="nice -n 10"';
  const r = await git(workspace, `${low}; export GIT_INDEX_FILE=${index}; $N ${GIT} add -A . >/dev/null && $N ${GIT} write-tree; status=$?; rm -f ${index}; exit $status`);
  const tree = r.output.trim().split("\n").at(-1) ?? "";
  return r.ok && isTreeId(tree) ? tree : null;
}

/** A git object id (SHA-1 or SHA-256), as opposed to a marker stored where a tree would be. */
export function isTreeId(value: string): boolean {
  return /^[0-9a-f]{40,64}$/.test(value);
}

const STATUS: Record<string, Change["status"]> = { A: "added", M: "modified", D: "deleted", T: "modified" };

/** What changed between two trees, per file, with its patch. */
export async function diffTrees(workspace: string, from: string, to: string): Promise<Omit<Change, "via">[]> {
  const names = await git(workspace, `${GIT} diff --no-renames --name-status ${from} ${to}`);
  if (!names.ok) return [];
  const patches = await git(workspace, `${GIT} diff --no-renames --no-ext-diff -U2 ${from} ${to}`);
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
