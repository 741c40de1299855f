// `plangate hook claude-code [--url URL]`: the command Claude Code runs on a PermissionRequest for
// ExitPlanMode (written by `plangate connect claude-code`). It puts the plan on Plangate's desk, waits for a
// person, and answers Claude Code; if Claude Code's own dialog answers first, it tells Plangate and stays silent.
import { spawn } from "node:child_process";
import fs from "node:fs";
import {
  askDecision,
  claudeHookInput,
  hookDecision,
  terminalAnswer,
  type AskReply,
  type ClaudeHookInput,
  type ReviewOutcome,
} from "../lib/external/claude-code-hook";
import { callServer, DEFAULT_URL } from "./client";
import { type Options, options, UsageError } from "./options";
import { readStdin } from "./stdin";
import { answerCheck, CHECK_KEY } from "./hook-check";

const say = (text: string) => process.stderr.write(`plangate: ${text}\n`);

/**
 * `--watch <reviewId> --transcript <file>`: a detached process that outlives the hook (Claude Code may kill a
 * hook whose question its dialog already answered) and reports a terminal answer to Plangate, so the review
 * never stays pending on the desk. It ends once the review is decided either way, or after a day.
 */
async function watchTranscript(url: string, reviewId: string, transcript: string): Promise<number> {
  const end = Date.now() + 86_400_000;
  while (Date.now() < end) {
    const answered = fs.existsSync(transcript) ? terminalAnswer(fs.readFileSync(transcript, "utf8")) : null;
    const state = await callServer(url, "GET", `/api/external/plan-reviews/${reviewId}?wait=0`).catch(() => null);
    if (state && (state.status !== 200 || (state.body as ReviewOutcome).status !== "pending")) return 0;
    if (answered) {
      await callServer(url, "POST", `/api/external/plan-reviews/${reviewId}/answered-elsewhere`, {
        answer: answered,
      }).catch(() => null);
      return 0;
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
  return 0;
}

// --watch and --transcript are the detached watcher's (see watchTranscript), started by this hook itself.
const OPTIONS = {
  url: { type: "string" },
  watch: { type: "string" },
  transcript: { type: "string" },
  help: { type: "boolean" },
} as const;
const USAGE = "usage: plangate hook claude-code [--url URL] (run by Claude Code; see plangate connect claude-code)";

export async function run(args: string[]): Promise<number> {
  let opts: Options<typeof OPTIONS>;
  try {
    opts = options(args, OPTIONS);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // Exit 1, not 2: for Claude Code a hook's exit 2 denies the request; 1 leaves it to its own dialog.
    say(`${error.message}\n${USAGE}`);
    return 1;
  }
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  const url = opts.url ?? DEFAULT_URL;
  if (typeof opts.watch === "string" && typeof opts.transcript === "string")
    return watchTranscript(url, opts.watch, opts.transcript);
  const raw: unknown = JSON.parse((await readStdin()) || "{}");
  if ((raw as Record<string, unknown> | null)?.[CHECK_KEY] === true) {
    await answerCheck(url);
    return 0;
  }
  const parsed = claudeHookInput.safeParse(raw);
  // Anything Plangate cannot take is left to Claude Code's own dialog: exit 0 without a decision.
  if (!parsed.success) return 0;
  const input = parsed.data;
  if (input.tool_name !== "ExitPlanMode") return permissionAsk(url, input);
  const plan = typeof input.tool_input.plan === "string" ? input.tool_input.plan : "";
  const planFilePath = typeof input.tool_input.planFilePath === "string" ? input.tool_input.planFilePath : undefined;
  const submitted = await callServer(url, "POST", "/api/external/plan-reviews", {
    agent: "claude-code",
    externalSessionId: input.session_id,
    cwd: input.cwd,
    plan,
    planFilePath,
  }).catch((error: unknown) => ({ status: 0, body: String(error) }));
  if (submitted.status !== 201) {
    say(
      `the plan was not sent to ${url} (${submitted.status || "unreachable"}): ${JSON.stringify(submitted.body)}; answer it in the terminal`,
    );
    return 0;
  }
  const { reviewId } = submitted.body as { reviewId: string };
  say(`plan sent for review: ${url}/desk?item=${reviewId}`);
  if (input.transcript_path) {
    const watcher = spawn(
      process.execPath,
      [
        ...process.execArgv,
        process.argv[1] ?? "",
        "hook",
        "claude-code",
        "--url",
        url,
        "--watch",
        reviewId,
        "--transcript",
        input.transcript_path,
      ],
      {
        detached: true,
        stdio: "ignore",
      },
    );
    watcher.unref();
  }
  for (;;) {
    const reply = await callServer(url, "GET", `/api/external/plan-reviews/${reviewId}?wait=5`).catch(() => null);
    if (reply?.status === 200) {
      const outcome = reply.body as ReviewOutcome;
      if (outcome.status !== "pending") {
        const decision = hookDecision(input, outcome);
        if (decision) process.stdout.write(`${JSON.stringify(decision)}\n`);
        return 0;
      }
    } else if (reply && reply.status >= 400 && reply.status < 500) {
      say(`the review is gone (${reply.status}); answer it in the terminal`);
      return 0;
    }
    // The terminal answered first (the watcher reports it): this hook's answer would be ignored anyway.
    if (
      input.transcript_path &&
      fs.existsSync(input.transcript_path) &&
      terminalAnswer(fs.readFileSync(input.transcript_path, "utf8"))
    )
      return 0;
    if (!reply) await new Promise((r) => setTimeout(r, 1_000));
  }
}

/**
 * A tool's permission ask (connected with --asks): Plangate's saved rules answer at once where they match,
 * otherwise the ask waits on the session's permission card. A tool Plangate does not judge, or a server that
 * does not answer, leaves the ask to Claude Code's own dialog.
 */
async function permissionAsk(url: string, input: ClaudeHookInput): Promise<number> {
  const asked = await callServer(url, "POST", "/api/external/permission-asks", {
    agent: "claude-code",
    externalSessionId: input.session_id,
    cwd: input.cwd,
    tool: input.tool_name,
    input: input.tool_input,
  }).catch(() => null);
  if (!asked || (asked.status !== 200 && asked.status !== 201)) return 0;
  let reply = asked.body as AskReply & { requestId: string | null };
  while (reply.status === "pending" && reply.requestId) {
    const next = await callServer(url, "GET", `/api/external/permission-asks/${reply.requestId}?wait=25`).catch(
      () => null,
    );
    if (next && next.status >= 400) return 0;
    if (next) reply = { ...(next.body as AskReply), requestId: reply.requestId };
    else await new Promise((r) => setTimeout(r, 1_000));
  }
  const decision = askDecision(input, reply);
  if (decision) process.stdout.write(`${JSON.stringify(decision)}\n`);
  return 0;
}
