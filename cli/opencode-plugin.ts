// The OpenCode plugin `plangate connect opencode` writes to `<project>/.opencode/plugin/plangate.js`: this module,
// bundled by esbuild (scripts/build-bundles.ts) with the CLI's own client, after a line that names the server.
//
// OpenCode (measured with opencode-ai 1.18.33, plan mode behind OPENCODE_EXPERIMENTAL_PLAN_MODE=1) ends planning
// with the `plan_exit` tool, which takes no arguments and asks a Question ("Plan at … is complete. Would you like
// to switch to the build agent…", Yes/No); it is not a permission request and `permission.ask` is never called.
// So the plugin gates the tool itself: `tool.execute.before` for plan_exit sends the plan file to Plangate and
// blocks until a person decides. A rejection (or a review set aside) throws, and OpenCode gives the thrown text
// to the model as the tool's result, so it keeps planning. An approval returns; the tool then asks its Question,
// which the plugin answers "Yes" for that call (same callID) through OpenCode's own API, and the build agent runs.
// When Plangate cannot be reached or refuses the review (e.g. the project is outside its workspace roots), the
// plugin logs why and leaves the decision to OpenCode's own dialog.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { awaitOutcome, submitPlan } from "./await-review";
import { rememberToken } from "./client";

/** Written by `plangate connect opencode` as the file's first statement: the server, and a token only if given. */
declare const PLANGATE: { url: string; token?: string };

/** What OpenCode hands a plugin, as far as this one uses it (opencode-ai 1.18). */
type Reply = { data?: unknown; error?: unknown };
type OpencodeClient = {
  app: { log(o: { body: { service: string; level: string; message: string; extra?: unknown } }): Promise<unknown> };
  session: { get(o: { path: { id: string } }): Promise<Reply> };
  /** Its raw client: the v1 SDK has no method for a question's reply yet. */
  _client?: { post(o: { url: string; path: Record<string, string>; body: unknown; headers: object }): Promise<Reply> };
};
type PluginInput = { client: OpencodeClient; directory: string; worktree: string; serverUrl: string | URL };
type ToolCall = { tool: string; sessionID: string; callID: string };
type QuestionAsked = { type: string; properties?: { id?: string; tool?: { callID?: string } } };

// Plangate unreachable this long while waiting: OpenCode's own dialog decides.
const GIVE_UP_AFTER_MS = 5 * 60 * 1000;
const NO_LINK_WRITE = fs.constants.O_WRONLY | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW;
// The plan file is the project's (a repository may plant one): a regular file, read up to this much.
const MAX_PLAN_BYTES = 1024 * 1024;

/** A plan file's text: a regular file only (a planted link is never followed), at most MAX_PLAN_BYTES. */
function readPlan(file: string): string {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) return "";
  if (st.size > MAX_PLAN_BYTES)
    throw new Error(`The plan file is over ${MAX_PLAN_BYTES} bytes. Shorten the plan, then call plan_exit again.`);
  return fs.readFileSync(file, "utf8");
}

function newestMarkdown(dir: string): string | undefined {
  let best: { file: string; mtime: number } | undefined;
  try {
    for (const name of fs.readdirSync(dir)) {
      if (!name.endsWith(".md")) continue;
      const file = path.join(dir, name);
      const st = fs.lstatSync(file);
      if (st.isFile() && (!best || st.mtimeMs > best.mtime)) best = { file, mtime: st.mtimeMs };
    }
  } catch {
    return undefined;
  }
  return best?.file;
}

export const PlangatePlugin = async ({ client, directory, worktree, serverUrl }: PluginInput) => {
  const url = PLANGATE.url;
  if (PLANGATE.token) rememberToken(url, PLANGATE.token);
  const approved = new Set<string>(); // plan_exit callIDs Plangate approved
  const dataDir = path.join(process.env.XDG_DATA_HOME || path.join(os.homedir(), ".local", "share"), "opencode");
  const roots = [...new Set([worktree, directory].filter((d) => d && d !== "/"))];

  const log = (level: string, message: string, extra?: unknown) =>
    client.app.log({ body: { service: "plangate", level, message, extra } }).catch(() => undefined);

  // OpenCode names the plan file <session created>-<slug>.md, under <worktree>/.opencode/plans in a git project
  // and under its data folder otherwise; failing that, the newest plan file is the one just written.
  async function planFile(sessionID: string): Promise<string | undefined> {
    const dirs = [...roots.map((r) => path.join(r, ".opencode", "plans")), path.join(dataDir, "plans")];
    const info = (await client.session.get({ path: { id: sessionID } }).catch(() => undefined))?.data as
      | { slug?: string; time?: { created?: number } }
      | undefined;
    if (info?.slug && info.time?.created !== undefined)
      for (const dir of dirs) {
        const file = path.join(dir, `${info.time.created}-${info.slug}.md`);
        if (fs.lstatSync(file, { throwIfNoEntry: false })?.isFile()) return file;
      }
    for (const dir of dirs) {
      const file = newestMarkdown(dir);
      if (file) return file;
    }
    return undefined;
  }

  async function review(call: ToolCall): Promise<void> {
    const file = await planFile(call.sessionID);
    const plan = file ? readPlan(file) : "";
    if (!plan.trim())
      throw new Error(
        "No plan was found. Write the plan to the plan file named in your instructions, then call plan_exit again.",
      );
    const submitted = await submitPlan(url, {
      agent: "opencode",
      externalSessionId: call.sessionID,
      cwd: directory,
      plan,
      planFilePath: file,
    });
    if ("unreachable" in submitted)
      return void (await log("warn", `${submitted.unreachable}; OpenCode's own dialog decides`));
    if ("refused" in submitted)
      return void (await log(
        "warn",
        `Plangate did not take the plan: ${submitted.refused}; OpenCode's own dialog decides`,
      ));
    const decision = await awaitOutcome(url, submitted.reviewId, Number.POSITIVE_INFINITY, {
      waitSec: 60,
      unreachableForMs: GIVE_UP_AFTER_MS,
    });
    if (decision && "status" in decision) {
      if (decision.status === "approved") {
        // The edited plan goes back into the file it came from, still a regular file (never through a link).
        if (decision.edited && typeof decision.plan === "string" && file) {
          const fd = fs.openSync(file, NO_LINK_WRITE);
          try {
            fs.writeFileSync(fd, decision.plan);
          } finally {
            fs.closeSync(fd);
          }
        }
        approved.add(call.callID);
        return;
      }
      if (decision.status === "rejected")
        throw new Error(
          decision.message ||
            "The plan was rejected in Plangate. Stay in plan mode: revise the plan file and call plan_exit again.",
        );
      if (decision.status === "abandoned")
        throw new Error(
          decision.message ||
            "The plan review was set aside in Plangate. Stay in plan mode and wait for the user's instructions.",
        );
    }
    // answered elsewhere, gone, or Plangate went away while waiting: OpenCode's own dialog decides
    const why = decision === null ? "Plangate stopped answering" : "gone" in decision ? decision.gone : decision.status;
    await log("warn", `Plangate gave no decision (${why}); OpenCode's own dialog decides`);
  }

  async function answerYes(questionId: string): Promise<void> {
    const body = { answers: [["Yes"]] };
    const headers = { "content-type": "application/json" };
    const res = client._client
      ? await client._client.post({
          url: "/question/{requestID}/reply",
          path: { requestID: questionId },
          body,
          headers,
        })
      : await fetch(new URL(`/question/${encodeURIComponent(questionId)}/reply`, serverUrl), {
          method: "POST",
          headers,
          body: JSON.stringify(body),
        }).then(
          (r): Reply => (r.ok ? {} : { error: `HTTP ${r.status}` }),
          (e: unknown): Reply => ({ error: String(e) }),
        );
    if (res?.error)
      await log("error", "could not answer OpenCode's question after Plangate approved", {
        error: JSON.stringify(res.error),
      });
  }

  return {
    "tool.execute.before": async (call: ToolCall) => {
      if (call.tool === "plan_exit") await review(call);
    },
    event: async ({ event }: { event: QuestionAsked }) => {
      const callID = event.properties?.tool?.callID;
      if (event.type !== "question.asked" || !callID || !approved.delete(callID) || !event.properties?.id) return;
      await answerYes(event.properties.id);
    },
  };
};
