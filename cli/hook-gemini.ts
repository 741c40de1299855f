// `plangate hook gemini --url URL [--deadline SECONDS]`: what Gemini CLI runs as a BeforeTool hook for
// exit_plan_mode (and, with --asks, for its write and shell tools), and as an AfterTool hook for exit_plan_mode.
// It puts the plan on Plangate's desk and answers with the person's decision. Gemini lets a tool run when its hook
// fails or times out, so every path here ends in an explicit answer, and the hook gives up before Gemini's timeout.
import fs from "node:fs";
import os from "node:os";
import {
  GEMINI_PLAN_TOOL,
  geminiAsk,
  geminiContext,
  geminiDeny,
  geminiGoOn,
  geminiHookInput,
  type GeminiHookInput,
  planFileIn,
} from "../lib/external/gemini-hook";
import { approvedNotes, rememberApproved } from "./approved-notes";
import { askAndWait, awaitOutcome, submitPlan } from "./await-review";
import { isConnected } from "./connections";
import { runHook } from "./run-hook";

const USAGE =
  "usage: plangate hook gemini [--url URL] [--deadline SECONDS] (run by Gemini CLI; see plangate connect gemini)";
const MAX_PLAN = 200_000;

/** Whether the Gemini process that ran this hook is a person's terminal session (not `gemini -p`): Linux only. */
function interactive(): boolean {
  try {
    let pid = process.ppid;
    for (let hop = 0; hop < 6 && pid > 1; hop++) {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (args.some((a) => /gemini/.test(a))) {
        if (args.some((a) => a === "-p" || a === "--prompt" || a.startsWith("--prompt="))) return false;
        return /^\/dev\/(pts\/|tty)/.test(fs.readlinkSync(`/proc/${pid}/fd/0`));
      }
      pid = Number(/^\d+ \(.*\) \S (\d+)/.exec(fs.readFileSync(`/proc/${pid}/stat`, "utf8"))?.[1] ?? 0);
    }
  } catch {}
  return false;
}

function readPlan(input: GeminiHookInput): string | { problem: string } {
  const dir = process.env.GEMINI_PLANS_DIR;
  const name = input.tool_input.plan_filename;
  const file = dir ? planFileIn(dir, name) : null;
  if (!file)
    return { problem: `exit_plan_mode names ${JSON.stringify(name)}, which is not a file in Gemini's plans folder` };
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return { problem: `the plan file ${file} cannot be read: write the plan there, then call exit_plan_mode again` };
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return { problem: `${file} is not a regular file` };
    const text = fs.readFileSync(fd, "utf8");
    if (text.trim() === "") return { problem: `the plan file ${file} is empty` };
    return text.length > MAX_PLAN ? { problem: `the plan is longer than ${MAX_PLAN} characters` } : text;
  } finally {
    fs.closeSync(fd);
  }
}

async function reviewPlan(url: string, input: GeminiHookInput, deadline: number): Promise<object> {
  const plan = readPlan(input);
  if (typeof plan !== "string") return geminiDeny(`Plangate: ${plan.problem}.`);
  const submitted = await submitPlan(url, {
    agent: "gemini",
    externalSessionId: input.session_id,
    cwd: input.cwd,
    machine: os.hostname(),
    plan,
    planFilePath: String(input.tool_input.plan_filename),
  });
  if ("unreachable" in submitted)
    // A person at Gemini's terminal gets its own dialog; a headless run is refused, never approved by default.
    return interactive() ? geminiGoOn() : geminiDeny(`${submitted.unreachable}: the plan was not reviewed.`);
  if ("refused" in submitted) return geminiDeny(`${submitted.refused}.`);
  process.stderr.write(`plangate: plan sent for review: ${url}/desk?item=${submitted.reviewId}\n`);
  const outcome = await awaitOutcome(url, submitted.reviewId, deadline);
  if (outcome === null)
    return geminiDeny(
      `No decision on Plangate (${url}) in time: the plan is not approved. Call exit_plan_mode again to ask again.`,
    );
  if ("gone" in outcome) return geminiDeny(`Plangate: ${outcome.gone}; the plan is not approved.`);
  if (outcome.status !== "approved")
    return geminiDeny(outcome.message ?? "The plan was not approved on Plangate: keep planning.");
  rememberApproved("gemini", input.session_id, submitted.reviewId);
  return geminiGoOn();
}

/** After the approved exit_plan_mode ran: what Plangate's own agent would read (notes, the edited plan). */
async function approvalContext(url: string, input: GeminiHookInput): Promise<object> {
  const outcome = await approvedNotes(url, "gemini", input.session_id);
  if (!outcome?.message) return geminiGoOn();
  return geminiContext(
    outcome.edited
      ? `${outcome.message}\n\n(The reviewer edited the plan on Plangate: follow this text, not the plan file's.)`
      : outcome.message,
  );
}

async function reviewAsk(url: string, input: GeminiHookInput, deadline: number): Promise<object> {
  const ask = geminiAsk(input.tool_name, input.tool_input);
  if (!ask) return geminiGoOn();
  const reply = await askAndWait(
    url,
    { agent: "gemini", externalSessionId: input.session_id, cwd: input.cwd, machine: os.hostname(), ...ask },
    deadline,
  );
  if (reply === null)
    return interactive()
      ? geminiGoOn()
      : geminiDeny(`Plangate (${url}) gave no answer for this ${input.tool_name} call: it is not allowed.`);
  if (["allow", "once", "always"].includes(reply.status)) return geminiGoOn();
  return geminiDeny(reply.message ?? "A person refused this call on Plangate.");
}

export function run(args: string[]): Promise<number> {
  return runHook(args, {
    usage: USAGE,
    refuse: (why) => geminiDeny(`Plangate's hook was set up wrongly (${why}): run plangate connect gemini again.`),
    async handle(raw, url, deadline) {
      const parsed = geminiHookInput.safeParse(raw);
      if (!parsed.success)
        return geminiDeny("Plangate's hook could not read what Gemini sent it; the call is not allowed.");
      const input = parsed.data;
      // A project never connected to Plangate goes on as if no hook ran.
      if (!isConnected("gemini", input.cwd)) return geminiGoOn();
      if (input.hook_event_name === "AfterTool")
        return input.tool_name === GEMINI_PLAN_TOOL ? approvalContext(url, input) : geminiGoOn();
      return input.tool_name === GEMINI_PLAN_TOOL ? reviewPlan(url, input, deadline) : reviewAsk(url, input, deadline);
    },
    // After the tool ran there is nothing left to refuse: the notes are lost, the approval stands.
    failed: (raw, why) =>
      (raw as { hook_event_name?: unknown } | undefined)?.hook_event_name === "AfterTool"
        ? geminiGoOn()
        : geminiDeny(`Plangate's hook failed (${why}); not allowed.`),
  });
}
