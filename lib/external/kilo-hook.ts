/**
 * Kilo CLI (`@kilocode/cli`, an OpenCode descendant): its plan agent ends planning with `plan_exit`, whose plan is
 * the file it names. Plangate's plugin (cli/kilo-plugin.ts) gates that tool in `tool.execute.before`; for what
 * needs the server it runs `plangate hook kilo` with one of the messages below and reads one answer back. Both sides
 * share these pure rules (the plugin carries them: nothing here may import a library; the hook reads its input with
 * ./kilo-hook-input.ts). Measured with Kilo 7.7.7 (docs/agents.md): a plugin that throws blocks the tool and the
 * model reads the thrown text as its result; a plugin that returns lets it run; nothing times a plugin out; after a
 * completed plan_exit Kilo asks "Ready to implement?" (`plan.followup.question`), and "Continue here" prompts its
 * code agent in the same session.
 */
export type KiloStart = { connected: boolean };
/**
 * plan_exit's answer: an approval's text for the model, with the plan file reviewed and its text as approved (the
 * plugin checks that Kilo ended planning with that very file), or the reason it was not approved (thrown to the
 * model). `unreviewed`: the folder is not connected, nothing was reviewed or approved.
 */
export type KiloPlanAnswer =
  | { approved: true; text: string; file?: string; plan?: string; unreviewed?: true }
  | { approved: false; error: string };
/** A tool call's answer (with --asks): go on, or block with the reason the model reads. */
export type KiloToolAnswer = { block?: true; reason?: string };

export const KILO_PLAN_TOOL = "plan_exit";
/** Kilo's tools that change things: with --asks each call is an ask on the desk. */
export const KILO_CHANGING_TOOLS = ["bash", "edit", "write", "apply_patch", "multiedit", "patch"] as const;
/** Kilo's folders for plans in a project; what its plan agent writes there is the planning itself. */
export const KILO_PLAN_DIRS = [".kilo/plans", ".opencode/plans"] as const;
/** The question Kilo asks after a completed plan_exit, and the answer that implements in the same session. */
export const KILO_FOLLOWUP_KEY = "plan.followup.question";
export const KILO_CONTINUE = "Continue here";

export const kiloBlock = (reason: string): KiloToolAnswer => ({ block: true, reason });

/** Kilo's question request, as far as the plugin reads it. */
export type KiloQuestion = { id?: unknown; sessionID?: unknown; questions?: { questionKey?: unknown }[] };

/** Whether a pending question is Kilo's "Ready to implement?" for this session (the one an approval answers). */
export function isPlanFollowup(q: KiloQuestion, sessionID: string): q is KiloQuestion & { id: string } {
  return (
    typeof q.id === "string" &&
    q.sessionID === sessionID &&
    q.questions?.length === 1 &&
    q.questions[0]?.questionKey === KILO_FOLLOWUP_KEY
  );
}

const isChanging = (tool: string) => (KILO_CHANGING_TOOLS as readonly string[]).includes(tool);

/** Relative path of `file` under `root`, or null when it is not beneath it (both already absolute and normal). */
export function beneath(root: string, file: string): string | null {
  const r = root.endsWith("/") ? root : `${root}/`;
  return file.startsWith(r) && file.length > r.length ? file.slice(r.length) : null;
}

/** A write or edit naming a markdown file in one of Kilo's plan folders (by its text; the disk is checked apart). */
export function isPlanFileWrite(tool: string, filePath: string, cwd: string): boolean {
  if (tool !== "write" && tool !== "edit") return false;
  const abs = filePath.startsWith("/") ? filePath : `${cwd.replace(/\/+$/, "")}/${filePath}`;
  if (abs.split("/").includes("..") || !abs.endsWith(".md")) return false;
  const rel = beneath(cwd.replace(/\/+$/, ""), abs);
  return rel !== null && KILO_PLAN_DIRS.some((d) => rel.startsWith(`${d}/`) && !rel.slice(d.length + 1).includes("/"));
}

/** A plan file's name as Kilo gives a session's own plan (`<created>-<slug>.md`): a name, never a path. */
export const isPlanFileName = (name: string): boolean => /^[\w.-]{1,200}\.md$/.test(name) && !name.startsWith(".");

/**
 * With --asks, a Kilo tool call as the ask Plangate judges (its Claude Code twin's name and input); a reading tool
 * or a plan file goes on (`isPlanFile`: the disk's answer, the name's alone is not enough); a changing call whose
 * input is not what Kilo 7.7 sends is refused rather than waved through.
 */
export function kiloAsk(
  tool: string,
  input: Record<string, unknown>,
  cwd: string,
  isPlanFile: (filePath: string) => boolean,
): { answer: KiloToolAnswer } | { ask: { tool: string; input: object } } {
  if (!isChanging(tool)) return { answer: {} };
  if (tool === "bash" && typeof input.command === "string")
    return { ask: { tool: "Bash", input: { command: input.command } } };
  if ((tool === "write" || tool === "edit") && typeof input.filePath === "string") {
    if (isPlanFileWrite(tool, input.filePath, cwd) && isPlanFile(input.filePath)) return { answer: {} };
    return { ask: { tool: tool === "edit" ? "Edit" : "Write", input: { file_path: input.filePath } } };
  }
  return { answer: kiloBlock(`Plangate could not read this ${tool} call; it is not allowed. Use write or edit.`) };
}

/** Plangate's words for its own agent, with Kilo's plan tool named where they name exit_plan_mode. */
export const inKiloTerms = (text: string): string => text.replaceAll("exit_plan_mode", KILO_PLAN_TOOL);

/**
 * What the model reads after plan_exit's own result when the plan is approved: who approved, the reviewer's notes,
 * the plan as approved (headed "edited by user" when it was), i.e. what Plangate's own agent would read.
 */
export function approvalText(o: { plan: string; message: string | null }): string {
  return inKiloTerms(`The plan was approved on Plangate.\n\n${o.message ?? o.plan}`);
}
