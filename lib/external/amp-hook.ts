/**
 * Amp (`@ampcode/cli`) has no plan mode, and its model runs only behind ampcode.com's sign-in. What Plangate can be
 * in Amp is two parts (docs/agents.md, measured with Amp 0.0.1790142911):
 * - a plugin (cli/amp-plugin.ts) that adds `submit_plan`: the plan goes on the desk and the person's answer comes
 *   back as the tool's result;
 * - a permission `delegate` (cli/hook-amp-delegate.ts), the first rule of the project's `.amp/settings.json`, that
 *   Amp runs before every tool call with the call's arguments on stdin and whose exit code decides: 0 allow, 1 ask
 *   (Amp's own dialog), anything else refuse, its stderr the reason. Amp's plugins fail open; a delegate that
 *   crashes, cannot start or prints nothing refuses, so the delegate is the gate.
 * Both sides share these pure rules (the plugin carries them: nothing here may import a library).
 */

export const AMP_PLAN_TOOL = "submit_plan";

/**
 * Amp's tools that only read (and the plan tool): the only ones that go on before an approval. Not its web tools or
 * `librarian` (they would carry what was read out before anyone saw a plan), nor `Task` (a subagent that edits).
 */
export const AMP_READING_TOOLS = [
  "Read",
  "Grep",
  "glob",
  "finder",
  "get_diagnostics",
  "find_thread",
  "read_thread",
  "shell_command_status",
] as const;

/** What Amp reads from a delegate's exit code. */
export const AMP_EXIT = { allow: 0, ask: 1, refuse: 2 } as const;

export type AmpDecision = { exit: 0 } | { exit: 1 } | { exit: 2; reason: string };
export type AmpAsk = { tool: string; input: object };

const refuse = (reason: string): AmpDecision => ({ exit: AMP_EXIT.refuse, reason });

export const readsOnly = (tool: string): boolean =>
  (AMP_READING_TOOLS as readonly string[]).includes(tool) || tool === AMP_PLAN_TOOL;

/** Before an approval only reading goes on; anything else (any plugin's or MCP server's tool too) is refused. */
export function beforeApproval(tool: string): AmpDecision {
  if (readsOnly(tool)) return { exit: AMP_EXIT.allow };
  return refuse(
    `Plangate's plan mode: ${tool} is not allowed until your plan is approved. Read with Read, Grep, glob and ` +
      `finder, then call ${AMP_PLAN_TOOL} with the whole plan in markdown and wait for the reviewer's answer.`,
  );
}

/** The files an `apply_patch` names (added, updated, deleted or moved to), in order; null when it names none. */
export function patchFiles(patchText: string): string[] | null {
  const files = [...patchText.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm)].map((m) =>
    (m[1] ?? "").trim(),
  );
  return files.length > 0 && files.every((f) => f !== "") ? files : null;
}

/** One word for a POSIX shell. */
const quoted = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;

/**
 * A shell call as the command the desk shows: one run in a folder of the project's (`workdir`, Bash's `cwd`) starts
 * with the `cd` there; null for a folder outside the project or one that climbs (`..`), which the desk could not
 * judge as the project's.
 */
function shellAsk(command: string, workdir: string | null, cwd: string): AmpAsk | null {
  const root = cwd.replace(/\/+$/, "");
  if (workdir === null || workdir === root || workdir === ".") return { tool: "Bash", input: { command } };
  const rel = workdir.startsWith(`${root}/`)
    ? workdir.slice(root.length + 1)
    : workdir.startsWith("/")
      ? null
      : workdir;
  if (rel === null || rel.split("/").includes("..") || rel.startsWith("~")) return null;
  return { tool: "Bash", input: { command: `cd ${quoted(rel)} && ${command}` } };
}

/**
 * An Amp tool call as the asks Plangate judges (its Claude Code twin's names and input) in the project `cwd`: one
 * per file a patch touches; [] for a tool that only reads; null for a changing call whose input is not what Amp
 * sends, or a command run in a folder outside the project.
 */
export function ampAsks(tool: string, input: Record<string, unknown>, cwd: string): AmpAsk[] | null {
  if (readsOnly(tool)) return [];
  const text = (k: string) => (typeof input[k] === "string" ? (input[k] as string) : null);
  if (tool === "shell_command" || tool === "async_shell_command" || tool === "Bash") {
    const command = text("command") ?? text("cmd");
    const ask = command === null ? null : shellAsk(command, text("workdir") ?? text("cwd"), cwd);
    return ask === null ? null : [ask];
  }
  if (tool === "edit_file" || tool === "create_file") {
    const file = text("path");
    return file === null ? null : [{ tool: tool === "edit_file" ? "Edit" : "Write", input: { file_path: file } }];
  }
  if (tool === "apply_patch") {
    const files = patchFiles(text("patchText") ?? "");
    return files === null ? null : files.map((f) => ({ tool: "Edit", input: { file_path: f } }));
  }
  return null;
}

/** Plangate's words for its own agent, with Amp's plan tool named where they name exit_plan_mode. */
export const inAmpTerms = (text: string): string => text.replaceAll("exit_plan_mode", AMP_PLAN_TOOL);

/** What the model reads when its plan is approved: the go-ahead, then what Plangate's own agent would read. */
export function approvalText(o: { plan: string; message: string | null }): string {
  return inAmpTerms(
    `The plan was approved on Plangate: you may now edit files and run commands.\n\n${o.message ?? o.plan}`,
  );
}
