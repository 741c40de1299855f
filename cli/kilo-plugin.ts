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
import fs from "node:fs";
import path from "node:path";
import {
  isPlanFileWrite,
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
import { isRealPlanFile, realPlanDirs } from "./kilo-plan-files";

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
  session: { get(o: { path: { id: string } }): Promise<Reply> };
  _client?: RawClient;
};
type PluginInput = { client: KiloClient; directory: string; worktree?: string };
type ToolCall = { tool: string; sessionID: string; callID: string };

const ask = <T>(message: object) => askHook<T>(PLANGATE.command, message);
// How long after an approved plan_exit the plugin looks for Kilo's follow-up question (it comes within a second).
const FOLLOWUP_FOR_MS = 60_000;

/** Whether Kilo ended planning with the file Plangate reviewed, holding the text approved (no swap after the review). */
function sameApprovedPlan(endedWith: unknown, root: string, approved: { file?: string; plan?: string }): boolean {
  if (typeof endedWith !== "string" || !approved.file || approved.plan === undefined) return false;
  try {
    const file = fs.realpathSync(path.resolve(root, endedWith));
    if (file !== fs.realpathSync(approved.file)) return false;
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    try {
      return fs.readFileSync(fd, "utf8") === approved.plan;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

export const PlangatePlugin = async ({ client, directory, worktree }: PluginInput) => {
  // Kilo reads a plan_exit path from its worktree (a folder outside git has none: "/").
  const root = worktree && worktree !== "/" ? worktree : directory;
  const planDirs = () => realPlanDirs([root, directory]);
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
  // plan_exit calls Plangate approved: what the model reads after the tool's own result, and what was approved.
  const approvals = new Map<string, Extract<KiloPlanAnswer, { approved: true }>>();

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
        const info = (await client.session.get({ path: { id: call.sessionID } }).catch(() => undefined))?.data as
          | { slug?: unknown; time?: { created?: unknown } }
          | undefined;
        const answer = await ask<KiloPlanAnswer>({
          event: "plan_exit",
          session_id: call.sessionID,
          cwd: directory,
          worktree: root,
          ...(typeof args.path === "string" ? { path: args.path } : {}),
          ...(typeof info?.slug === "string" && typeof info.time?.created === "number"
            ? { session_plan: `${info.time.created}-${info.slug}.md` }
            : {}),
        });
        if (answer.approved !== true) throw new Error(answer.error || "The plan was not approved on Plangate.");
        if (!answer.unreviewed) approvals.set(call.callID, answer);
        return;
      }
      // Kilo's plan agent may write its plan files: never through a link a repository planted there.
      const target = typeof args.filePath === "string" ? path.resolve(directory, args.filePath) : "";
      const named = target && [root, directory].some((r) => isPlanFileWrite(call.tool, target, r));
      if (named && !isRealPlanFile(target, planDirs()))
        throw new Error(`Plangate: ${args.filePath} is a link or leads out of the plan folder; it was not written.`);
      if (!PLANGATE.asks || !(KILO_CHANGING_TOOLS as readonly string[]).includes(call.tool)) return;
      const answer = await ask<KiloToolAnswer>({
        event: "tool_call",
        session_id: call.sessionID,
        cwd: directory,
        worktree: root,
        tool_name: call.tool,
        input: args,
      });
      if (answer.block) throw new Error(answer.reason ?? "Not allowed by Plangate.");
    },
    "tool.execute.after": async (call: ToolCall, output: { output?: string; metadata?: { plan?: unknown } }) => {
      const approved = approvals.get(call.callID);
      if (call.tool !== KILO_PLAN_TOOL || approved === undefined) return;
      approvals.delete(call.callID);
      // Kilo picks its plan file by rules of its own: implement only when it is the very plan the person approved.
      if (!sameApprovedPlan(output.metadata?.plan, root, approved)) {
        output.output = `Plangate: plan_exit ended with ${String(output.metadata?.plan)}, which is not the plan approved on Plangate (${approved.file}); this plan is NOT approved. Call plan_exit again with the path of the plan file you wrote.`;
        return;
      }
      output.output = `${output.output ?? ""}\n\n${approved.text}`;
      void answerFollowup(call.sessionID);
    },
  };
};
