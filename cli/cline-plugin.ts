// The Cline plugin `plangate connect cline` writes to ~/.cline/plugins/plangate.js: this module, bundled by esbuild
// (scripts/build-bundles.ts) after a line naming the hook command. Headless Cline has no tool that ends planning,
// so in a connected folder this is its plan mode: it adds `submit_plan`, and until a plan is approved on Plangate's
// desk only reading goes on (`beforeTool` skips every other tool with the reason, which the model reads). The plan
// goes to the desk and the person's answer is the tool's result; a send-back is thrown, which Cline hands the model
// as the tool's error. Cline gives a plugin tool 60 s, so a plan still waiting after 50 s is answered "call again"
// (as a result, not an error: the edits stay skipped until an approval either way).
//
// What needs the server runs through `plangate hook cline` (cli/hook-cline.ts), so the plugin holds no token and no
// client. Every failure is a refusal: a tool that throws fails, and a `beforeTool` that throws or takes over 3 s
// ends Cline's run (measured with Cline 3.0.65). Cline runs on without any plugin when loading them fails (another
// plugin's slow setup is enough), so a PreToolUse command hook stands behind this one (cli/hook-cline-tools.ts).
import {
  approvalCounts,
  beforeApproval,
  CLINE_PLAN_TOOL,
  CLINE_PLUGIN_NAME,
  type ClinePlanAnswer,
  runKey,
} from "../lib/external/cline-hook";
import { askHook } from "./ask-hook";
import { markLive } from "./cline-live";
import { gatesAny } from "./connections";

/** Written by `plangate connect cline` as the file's first statement. */
declare const PLANGATE: { command: string };

/** What Cline hands a plugin, as far as this one uses it (Cline 3.0). */
type SetupContext = { workspaceInfo?: { rootPath?: string } };
type ToolContext = { sessionId: string; conversationId: string; runId: string; iteration: number };
type PluginApi = {
  registerTool(tool: {
    name: string;
    description: string;
    inputSchema: object;
    execute(input: { plan?: unknown }, ctx: ToolContext): Promise<string>;
  }): void;
};
type BeforeTool = {
  tool?: { name?: string };
  snapshot?: { conversationId?: string; runId?: string; iteration?: number };
};

const ask = <T>(message: object) => askHook<T>(PLANGATE.command, message);

// The folder Cline runs in (its plugin sandbox starts there); Cline's own workspace root is the repository's top.
const cwd = process.cwd();
// Whether the gate is on here, read at once from the connected projects (Cline gives all plugins' setup 4 s
// together, and skips every plugin when it is over): a list that cannot be read gates.
let connected = true;
// Runs of conversations whose plan Plangate approved, and at which iteration: it counts from the next one.
const approvedAt = new Map<string, number>();
// A plan still waiting on the desk, per conversation: the same plan sent again waits on the same review.
const waiting = new Map<string, { reviewId: string; plan: string }>();

async function submit(input: { plan?: unknown }, ctx: ToolContext): Promise<string> {
  const plan = typeof input.plan === "string" ? input.plan : "";
  const same = waiting.get(ctx.conversationId);
  const answer = await ask<ClinePlanAnswer>({
    event: "submit_plan",
    session_id: ctx.sessionId,
    conversation_id: ctx.conversationId,
    cwd,
    plan,
    ...(same && same.plan === plan ? { review_id: same.reviewId } : {}),
  });
  waiting.delete(ctx.conversationId);
  if (answer.approved === true) {
    approvedAt.set(runKey(ctx.conversationId, ctx.runId), ctx.iteration);
    return answer.text;
  }
  // Still waiting is no failure: Cline ends a run after a few failed calls in a row, and the model only calls again.
  if (answer.pending) {
    waiting.set(ctx.conversationId, { reviewId: answer.pending.reviewId, plan });
    return answer.error;
  }
  throw new Error(answer.error || "The plan was not approved on Plangate.");
}

export default {
  name: CLINE_PLUGIN_NAME,
  manifest: { capabilities: ["hooks", "tools"] },
  async setup(api: PluginApi, ctx?: SetupContext) {
    try {
      connected = gatesAny("cline", [cwd, ...(ctx?.workspaceInfo?.rootPath ? [ctx.workspaceInfo.rootPath] : [])]);
    } catch {
      connected = true;
    }
    if (!connected) return;
    api.registerTool({
      name: CLINE_PLAN_TOOL,
      description:
        "Submit your implementation plan (markdown) for review on Plangate and wait for the reviewer's answer. Only reading is allowed until a plan is approved; if the answer is feedback, revise the plan and call this again.",
      inputSchema: {
        type: "object",
        properties: { plan: { type: "string", description: "The whole plan, in markdown" } },
        required: ["plan"],
      },
      execute: submit,
    });
  },
  hooks: {
    // The backstop hook leaves the gate to this plugin while it runs (cli/cline-live.ts).
    async beforeRun(ctx: BeforeTool) {
      if (connected && ctx.snapshot?.conversationId) markLive(ctx.snapshot.conversationId);
    },
    async beforeTool(ctx: BeforeTool) {
      if (!connected) return undefined;
      const run = runKey(ctx.snapshot?.conversationId ?? "", ctx.snapshot?.runId ?? "");
      if (approvalCounts(approvedAt.get(run), ctx.snapshot?.iteration ?? 0)) return undefined;
      return beforeApproval(ctx.tool?.name ?? "");
    },
  },
};
