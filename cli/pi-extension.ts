// The pi extension `plangate connect pi` writes to ~/.pi/agent/extensions/plangate.js: this module, bundled by
// esbuild (scripts/build-bundles.ts) after a line naming the hook command. Pi has no plan mode; in a connected
// folder this is it. Until a plan is approved on Plangate's desk, only reading goes on (every other tool, pi's edit,
// write and bash among them, is refused) and the model is given read-only tools and `submit_plan`; the plan goes to the desk and the person's
// answer comes back as the tool's result (a rejection as its error, which pi hands the model word for word).
//
// What needs the server runs through `plangate hook pi` (cli/hook-pi.ts), so the extension holds no token and no
// client. Every failure is a refusal: a handler that throws blocks the tool (measured with pi 0.73.1), and a hook
// that cannot be run, or answers nothing readable, blocks too.
import {
  beforeApproval,
  PI_CHANGING_TOOLS,
  PI_PLAN_TOOL,
  PI_READING_TOOLS,
  type PiPlanAnswer,
  type PiStart,
  type PiToolAnswer,
} from "../lib/external/pi-hook";
import { askHook } from "./ask-hook";

/** Written by `plangate connect pi` as the file's first statement. */
declare const PLANGATE: { command: string; asks: boolean };

/** What pi hands an extension, as far as this one uses it (pi 0.73). */
type Ctx = { cwd: string; sessionManager: { getSessionId(): string } };
type ToolCallEvent = { toolName: string; toolCallId: string; input: Record<string, unknown> };
type ToolResult = { content: { type: "text"; text: string }[]; details: Record<string, unknown> };
type PiApi = {
  on(event: "tool_call", h: (e: ToolCallEvent, ctx: Ctx) => Promise<PiToolAnswer | undefined>): void;
  on(event: "session_start" | "turn_start", h: (e: unknown, ctx: Ctx) => Promise<void>): void;
  registerTool(tool: {
    name: string;
    label: string;
    description: string;
    promptSnippet: string;
    promptGuidelines: string[];
    parameters: object;
    executionMode: "sequential";
    execute(
      id: string,
      params: { plan: string },
      signal: AbortSignal | undefined,
      u: unknown,
      ctx: Ctx,
    ): Promise<ToolResult>;
  }): void;
  getActiveTools(): string[];
  setActiveTools(names: string[]): void;
};

const ask = <T>(message: object, signal?: AbortSignal) => askHook<T>(PLANGATE.command, message, signal);

export default function plangate(pi: PiApi): void {
  // Whether a folder is connected, asked once per folder: pi runs a session in its own folder (a session opened
  // from elsewhere with --session or /resume), so the folder is the call's, never the one pi started in. A hook that
  // cannot say gates the folder.
  const connectedIn = new Map<string, Promise<boolean>>();
  const connected = (cwd: string) => {
    let known = connectedIn.get(cwd);
    if (!known) {
      known = ask<PiStart>({ event: "start", cwd }).then(
        (a) => a.connected !== false,
        () => true,
      );
      connectedIn.set(cwd, known);
    }
    return known;
  };
  // Pi sessions (ids) whose plan Plangate approved in this process; a new or resumed one plans again. An approval
  // counts from the model's next turn: calls sent beside submit_plan wait until it has read the answer.
  const approved = new Set<string>();
  const approvedNextTurn = new Set<string>();

  pi.registerTool({
    name: PI_PLAN_TOOL,
    label: "Submit plan",
    description:
      "Submit your implementation plan (markdown) for review on Plangate and wait for the reviewer's answer. Only reading is allowed until a plan is approved.",
    promptSnippet: "Submit the implementation plan for review (required before edit, write or bash)",
    promptGuidelines: [
      `Plan first: read what you need, then call ${PI_PLAN_TOOL} with the whole plan. If it comes back with feedback, revise the plan and call ${PI_PLAN_TOOL} again.`,
    ],
    parameters: {
      type: "object",
      properties: { plan: { type: "string", description: "The whole plan, in markdown" } },
      required: ["plan"],
    },
    executionMode: "sequential",
    async execute(_id, params, signal, _u, ctx) {
      const answer = await ask<PiPlanAnswer>(
        { event: "submit_plan", session_id: ctx.sessionManager.getSessionId(), cwd: ctx.cwd, plan: params.plan },
        signal,
      );
      if (answer.approved !== true) throw new Error(answer.error || "The plan was not approved on Plangate.");
      approvedNextTurn.add(ctx.sessionManager.getSessionId());
      return { content: [{ type: "text", text: answer.text }], details: { approved: true } };
    },
  });

  pi.on("session_start", async (_e, ctx) => {
    const tools = pi.getActiveTools().filter((t) => t !== PI_PLAN_TOOL);
    // Pi offers only read, bash, edit and write by default: planning gets its read-only tools and the plan tool.
    pi.setActiveTools((await connected(ctx.cwd)) ? [...new Set([...tools, ...PI_READING_TOOLS, PI_PLAN_TOOL])] : tools);
  });

  pi.on("turn_start", async (_e, ctx) => {
    const session = ctx.sessionManager.getSessionId();
    if (approvedNextTurn.delete(session)) approved.add(session);
  });

  pi.on("tool_call", async (event, ctx) => {
    if (!(await connected(ctx.cwd))) return undefined;
    if (!approved.has(ctx.sessionManager.getSessionId())) return beforeApproval(event.toolName);
    if (!PLANGATE.asks || !(PI_CHANGING_TOOLS as readonly string[]).includes(event.toolName)) return undefined;
    const answer = await ask<PiToolAnswer>({
      event: "tool_call",
      session_id: ctx.sessionManager.getSessionId(),
      cwd: ctx.cwd,
      tool_name: event.toolName,
      input: event.input,
    });
    return answer.block ? { block: true, reason: answer.reason ?? "Not allowed by Plangate." } : undefined;
  });
}
