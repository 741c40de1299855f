// The Kilo plugin `plangate connect kilo` writes to ~/.config/kilo/plugin/plangate.js: this module, bundled by esbuild
// (scripts/build-bundles.ts) after a line naming the hook command. In a connected folder, Kilo's plan_exit waits in
// `tool.execute.before` for a person's decision on Plangate's desk: a send-back or a review set aside is thrown, and
// Kilo hands the thrown text to the model as plan_exit's result, so it keeps planning; an approval lets plan_exit
// finish, appends what Plangate's own agent would read (notes, the plan as approved) to its result, and answers
// Kilo's "Ready to implement?" with "Continue here", so its code agent implements in the same session.
//
// What needs the server runs through `plangate hook kilo` (cli/hook-kilo.ts), so the plugin holds no token and no
// client. Every failure is a refusal: a plugin that throws blocks the tool (measured with Kilo 7.7.7), and a hook
// that cannot be run, or answers nothing readable, throws.
import {
  isPlanFollowup,
  KILO_CHANGING_TOOLS,
  KILO_CONTINUE,
  KILO_PLAN_TOOL,
  type KiloPlanAnswer,
  type KiloQuestion,
  type KiloStart,
  type KiloToolAnswer,
} from "../lib/external/kilo-hook";
import { askHook } from "./ask-hook";

/** Written by `plangate connect kilo` as the file's first statement. */
declare const PLANGATE: { command: string; asks: boolean };

/** What Kilo hands a plugin, as far as this one uses it (Kilo 7.7: its v1 client has no question methods). */
type Reply = { data?: unknown; error?: unknown };
type RawClient = {
  get(o: { url: string }): Promise<Reply>;
  post(o: { url: string; path: Record<string, string>; body: unknown; headers: object }): Promise<Reply>;
};
type KiloClient = {
  app: { log(o: { body: { service: string; level: string; message: string } }): Promise<unknown> };
  _client?: RawClient;
};
type PluginInput = { client: KiloClient; directory: string };
type ToolCall = { tool: string; sessionID: string; callID: string };

const ask = <T>(message: object) => askHook<T>(PLANGATE.command, message);
// How long after an approved plan_exit the plugin looks for Kilo's follow-up question (it comes within a second).
const FOLLOWUP_FOR_MS = 60_000;

export const PlangatePlugin = async ({ client, directory }: PluginInput) => {
  const log = (level: string, message: string) =>
    client.app.log({ body: { service: "plangate", level, message } }).catch(() => undefined);
  // Whether this folder is connected, asked once: a hook that cannot say gates the folder.
  let known: Promise<boolean> | undefined;
  const connected = () => {
    known ??= ask<KiloStart>({ event: "start", cwd: directory }).then(
      (a) => a.connected !== false,
      () => true,
    );
    return known;
  };
  // plan_exit calls Plangate approved: what the model reads after the tool's own result.
  const approvals = new Map<string, string>();

  async function answerFollowup(sessionID: string): Promise<void> {
    const raw = client._client;
    if (!raw) return void (await log("warn", "this Kilo's client cannot answer its follow-up question"));
    for (const until = Date.now() + FOLLOWUP_FOR_MS; Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 200));
      const listed = await raw.get({ url: "/question" }).catch(() => ({}) as Reply);
      const q = Array.isArray(listed.data)
        ? (listed.data as KiloQuestion[]).find((x) => isPlanFollowup(x, sessionID))
        : undefined;
      if (!q) continue;
      const res = await raw
        .post({
          url: "/question/{requestID}/reply",
          path: { requestID: q.id },
          body: { answers: [[KILO_CONTINUE]] },
          headers: { "content-type": "application/json" },
        })
        .catch((e: unknown): Reply => ({ error: String(e) }));
      if (res.error) await log("error", `could not answer Kilo's follow-up question: ${JSON.stringify(res.error)}`);
      return;
    }
  }

  return {
    "tool.execute.before": async (call: ToolCall, output: { args?: Record<string, unknown> }) => {
      if (!(await connected())) return;
      const args = output.args ?? {};
      if (call.tool === KILO_PLAN_TOOL) {
        const answer = await ask<KiloPlanAnswer>({
          event: "plan_exit",
          session_id: call.sessionID,
          cwd: directory,
          ...(typeof args.path === "string" ? { path: args.path } : {}),
        });
        if (answer.approved !== true) throw new Error(answer.error || "The plan was not approved on Plangate.");
        approvals.set(call.callID, answer.text);
        return;
      }
      if (!PLANGATE.asks || !(KILO_CHANGING_TOOLS as readonly string[]).includes(call.tool)) return;
      const answer = await ask<KiloToolAnswer>({
        event: "tool_call",
        session_id: call.sessionID,
        cwd: directory,
        tool_name: call.tool,
        input: args,
      });
      if (answer.block) throw new Error(answer.reason ?? "Not allowed by Plangate.");
    },
    "tool.execute.after": async (call: ToolCall, output: { output?: string }) => {
      const text = approvals.get(call.callID);
      if (call.tool !== KILO_PLAN_TOOL || text === undefined) return;
      approvals.delete(call.callID);
      output.output = `${output.output ?? ""}\n\n${text}`;
      void answerFollowup(call.sessionID);
    },
  };
};
