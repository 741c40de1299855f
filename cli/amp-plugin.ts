// The Amp plugin `plangate connect amp` writes to ~/.config/amp/plugins/plangate.js: this module, bundled by
// esbuild (scripts/build-bundles.ts) after a line naming the hook command; Amp runs it under its own Bun. Amp has
// no plan mode and no plan tool, so the plugin adds `submit_plan`: the plan goes on Plangate's desk under the
// calling thread, and the person's answer is the tool's result (a send-back is thrown, the tool's error). The gate
// is the project's permission delegate (cli/hook-amp-delegate.ts), which fails closed; Amp takes a plugin that
// fails or answers nothing as "allow", so the plugin's own gate stands behind it, for what the delegate cannot
// see: a repository's settings that drop or shadow its rule (a nearer `.amp/settings.json`, a key given twice, a
// pull) or let everything through (`amp.dangerouslyAllowAll`). Before the thread's plan is approved in this
// folder, a changing call is rejected with the reason the model reads.
//
// What needs the server runs through `plangate hook amp` (cli/hook-amp.ts), so the plugin holds no token and no
// client; the hook remembers an approval by thread and folder, where the delegate finds it.
import { AMP_PLAN_TOOL, readsOnly } from "../lib/external/amp-hook";
import type { PiPlanAnswer as PlanAnswer, PiToolAnswer as ToolAnswer } from "../lib/external/pi-hook";
import { askHook } from "./ask-hook";

/** Written by `plangate connect amp` as the file's first statement. */
declare const PLANGATE: { command: string };

/** What Amp hands a plugin, as far as this one uses it (Amp's plugin API, 2026-09). */
type ToolContext = { thread: { id: string } };
type ToolCallEvent = { tool: string; thread: { id: string } };
type ToolCallResult = { action: "allow" } | { action: "reject-and-continue"; message: string };
type Uri = { toString(): string };
type PluginApi = {
  system: { workspaceRoot: Uri | null };
  helpers: { filePathFromURI(uri: Uri): string };
  on(event: "tool.call", handler: (event: ToolCallEvent) => Promise<ToolCallResult>): unknown;
  registerTool(tool: {
    name: string;
    title: string;
    description: string;
    inputSchema: object;
    execute(input: Record<string, unknown>, ctx: ToolContext): Promise<string>;
  }): unknown;
};

export default function plangate(amp: PluginApi): void {
  // Amp runs a plugin in its own folder, not the project's: the project is Amp's workspace root. Without one the
  // plugin cannot tell whether the folder is connected, so it gates.
  const root = amp.system.workspaceRoot;
  const cwd = root ? amp.helpers.filePathFromURI(root) : null;
  const noWorkspace =
    "Plangate: Amp has no workspace open, so Plangate cannot tell which project this is; not allowed.";

  amp.on("tool.call", async (event) => {
    if (readsOnly(event.tool)) return { action: "allow" };
    if (cwd === null) return { action: "reject-and-continue", message: noWorkspace };
    const answer = await askHook<ToolAnswer>(PLANGATE.command, {
      event: "tool_call",
      session_id: event.thread.id,
      cwd,
      tool_name: event.tool,
    }).catch((e: Error): ToolAnswer => ({ block: true, reason: e.message }));
    return answer.block
      ? { action: "reject-and-continue", message: answer.reason ?? "Not allowed by Plangate." }
      : { action: "allow" };
  });

  amp.registerTool({
    name: AMP_PLAN_TOOL,
    title: "Submit plan to Plangate",
    description:
      "Submit your implementation plan (markdown) for review on Plangate and wait for the reviewer's answer. " +
      "Edits and commands are refused until a plan is approved; if it comes back with feedback, revise the plan " +
      `and call ${AMP_PLAN_TOOL} again.`,
    inputSchema: {
      type: "object",
      properties: { plan: { type: "string", description: "The whole plan, in markdown" } },
      required: ["plan"],
    },
    async execute(input, ctx) {
      if (cwd === null) throw new Error(noWorkspace);
      const answer = await askHook<PlanAnswer>(PLANGATE.command, {
        event: "submit_plan",
        session_id: ctx.thread.id,
        cwd,
        plan: typeof input.plan === "string" ? input.plan : "",
      });
      if (answer.approved !== true) throw new Error(answer.error || "The plan was not approved on Plangate.");
      return answer.text;
    },
  });
}
