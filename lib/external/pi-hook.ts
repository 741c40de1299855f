/**
 * Pi (`@mariozechner/pi-coding-agent`) has no plan mode of its own: Plangate's extension is it (cli/pi-extension.ts).
 * The extension runs inside pi; for what needs the server (is this folder connected, a plan, an ask) it runs
 * `plangate hook pi` with one of these on stdin and reads one answer back, and it decides the rest itself with the
 * pure rules below, which both sides share (the extension carries them: nothing here may import a library; the
 * hook reads its input with ./pi-hook-input.ts). Measured with pi 0.73.1 (docs/agents.md): a
 * `tool_call` handler's `{block, reason}` stops the tool and the model reads the reason word for word; a tool that
 * throws hands the model the error's text; a handler that throws blocks; nothing times out.
 */
export type PiStart = { connected: boolean };
/** submit_plan's answer: an approval's text for the model, or the reason it was not approved (thrown to the model). */
export type PiPlanAnswer = { approved: true; text: string } | { approved: false; error: string };
/** A tool call's answer: go on, or block with the reason the model reads. */
export type PiToolAnswer = { block?: true; reason?: string };

export const PI_PLAN_TOOL = "submit_plan";
/** Pi's tools that change things: refused until a plan is approved; with --asks, on the desk after it. */
export const PI_CHANGING_TOOLS = ["edit", "write", "bash"] as const;
/** The read-only tools the extension turns on while planning (pi offers only read, bash, edit and write by default). */
export const PI_READING_TOOLS = ["read", "grep", "find", "ls"] as const;

export const piBlock = (reason: string): PiToolAnswer => ({ block: true, reason });
export const piGoOn = (): PiToolAnswer => ({});

const isChanging = (tool: string) => (PI_CHANGING_TOOLS as readonly string[]).includes(tool);

/**
 * Before an approval only reading goes on: pi's read-only tools and the plan tool. Anything else (its changing
 * tools, and any tool another extension or package adds) is refused with what to do instead.
 */
export function beforeApproval(tool: string): PiToolAnswer {
  if ((PI_READING_TOOLS as readonly string[]).includes(tool) || tool === PI_PLAN_TOOL) return piGoOn();
  return piBlock(
    `Plangate's plan mode: ${tool} is not allowed until your plan is approved. Read with read, grep, find and ls, ` +
      `then call ${PI_PLAN_TOOL} with the whole plan in markdown and wait for the reviewer's answer.`,
  );
}

/** A pi tool call as the ask Plangate judges (its Claude Code twin's name and input), or null for a reading tool. */
export function piAsk(tool: string, input: Record<string, unknown>): { tool: string; input: object } | null {
  if (tool === "bash" && typeof input.command === "string") return { tool: "Bash", input: { command: input.command } };
  if ((tool === "write" || tool === "edit") && typeof input.path === "string")
    return { tool: tool === "edit" ? "Edit" : "Write", input: { file_path: input.path } };
  return null;
}

/** After an approval without --asks every call goes on; with it, a changing call is an ask (or refused unread). */
export function afterApproval(
  tool: string,
  input: Record<string, unknown>,
  asks: boolean,
): { answer: PiToolAnswer } | { ask: { tool: string; input: object } } {
  if (!asks || !isChanging(tool)) return { answer: piGoOn() };
  const ask = piAsk(tool, input);
  // A changing tool whose input is not what pi 0.73 sends is refused rather than waved through.
  return ask ? { ask } : { answer: piBlock(`Plangate could not read this ${tool} call; it is not allowed.`) };
}

/** Plangate's words for its own agent, with pi's plan tool named where they name exit_plan_mode. */
export const inPiTerms = (text: string): string => text.replaceAll("exit_plan_mode", PI_PLAN_TOOL);

/**
 * What the model reads when its plan is approved: the go-ahead, then what Plangate's own agent would read (who
 * approved, the reviewer's notes, the plan as approved, headed "edited by user" when it was).
 */
export function approvalText(o: { plan: string; message: string | null }): string {
  return inPiTerms(
    `The plan was approved on Plangate: ${PI_CHANGING_TOOLS.join(", ")} are allowed now.\n\n${o.message ?? o.plan}`,
  );
}
