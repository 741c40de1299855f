/**
 * Cline CLI (`cline`) has plan and act modes, but headless Cline offers no tool that ends planning, and its command
 * hooks fail open on every error and cannot tell the model why; a plugin can (measured with Cline 3.0.65,
 * docs/agents.md). So Plangate's plugin (cli/cline-plugin.ts) is Cline's plan mode in a connected folder: it adds
 * `submit_plan`, and until a plan is approved on the desk only reading goes on. The plugin runs in Cline's plugin
 * sandbox; for what needs the server it runs `plangate hook cline` with one of the messages below and reads one
 * answer back. Both sides share these pure rules (the plugin carries them: nothing here may import a library; the
 * hook reads its input with ./cline-hook-input.ts). Cline gives a plugin's `beforeTool` 3 s and a plugin tool 60 s,
 * and a tool that throws hands the model `{"error": text}`: so a plan waits on the desk in calls of at most 50 s.
 */
export type ClineStart = { connected: boolean };
/** submit_plan's answer: an approval's text, the reason it was not approved, or that it is still waiting. */
export type ClinePlanAnswer =
  | { approved: true; text: string }
  | { approved: false; error: string; pending?: { reviewId: string } };
/** A beforeTool answer: Cline skips the tool and hands the model the reason. */
export type ClineSkip = { skip: true; reason: string };

export const CLINE_PLAN_TOOL = "submit_plan";
/**
 * Cline's tools that only read (and ask the person): the only ones that go on before an approval. Not
 * fetch_web_content: it would carry what was read out (a URL holding a file's text) before anyone saw a plan.
 */
export const CLINE_READING_TOOLS = ["read_files", "search_codebase", "ask_question"] as const;
/** The plugin's name in Cline: a later plugin of the same name replaces an earlier one. */
export const CLINE_PLUGIN_NAME = "plangate-plan-mode";
/** Cline gives a plugin tool 60 s: a wait on the desk ends before, and the model calls submit_plan again. */
export const CLINE_WAIT_SEC = 50;

/**
 * Before an approval only reading goes on: Cline's reading tools and the plan tool. Anything else (its editor and
 * commands, subagents, teams, and any tool another plugin adds) is skipped with what to do instead.
 */
export function beforeApproval(tool: string): ClineSkip | undefined {
  if (readsOnly(tool)) return undefined;
  return {
    skip: true,
    reason:
      `Plangate's plan mode: ${tool} is not allowed until your plan is approved. Read with ` +
      `${CLINE_READING_TOOLS.slice(0, 2).join(" and ")}, then call ${CLINE_PLAN_TOOL} with the whole plan in markdown.`,
  };
}

/**
 * Whether an approval counts at this iteration: in the run it was given in (a new task in the same conversation
 * plans again), from the model's next turn, after it read the answer.
 */
export const approvalCounts = (approvedAt: number | undefined, iteration: number): boolean =>
  approvedAt !== undefined && iteration > approvedAt;

/** The key an approval is kept under: one run of one conversation. */
export const runKey = (conversationId: string, runId: string): string => `${conversationId}\u0000${runId}`;

/** Whether a tool may go on before an approval (the plugin's gate and the backstop hook both ask this). */
export const readsOnly = (tool: string): boolean =>
  (CLINE_READING_TOOLS as readonly string[]).includes(tool) || tool === CLINE_PLAN_TOOL;

/** Plangate's words for its own agent, with Cline's plan tool named where they name exit_plan_mode. */
export const inClineTerms = (text: string): string => text.replaceAll("exit_plan_mode", CLINE_PLAN_TOOL);

/** What the model reads when its plan is approved: the go-ahead, then what Plangate's own agent would read. */
export function approvalText(o: { plan: string; message: string | null }): string {
  return inClineTerms(
    `The plan was approved on Plangate: you may now edit files and run commands.\n\n${o.message ?? o.plan}`,
  );
}

/** What the model reads while the plan still waits: call again, with the same plan, to keep waiting. */
export const stillWaiting = (url: string): string =>
  `The plan is on Plangate's desk (${url}) and waits for a person's decision. Call ${CLINE_PLAN_TOOL} again with the same plan to keep waiting; do not change files meanwhile.`;
