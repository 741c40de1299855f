// `plangate hook qwen --url URL [--deadline SECONDS]`: what Qwen Code runs for exit_plan_mode as a PermissionRequest
// hook (before its own prompt: the plan goes on Plangate's desk and waits for a person), a PreToolUse hook (after the
// prompt: nothing runs that the desk did not approve, whatever the prompt's answer) and a PostToolUse hook (the
// approval's notes for the model); with --asks, as a PreToolUse hook for its write and shell tools. Every path
// ends in an explicit answer, before Qwen's timeout.
import { createHash } from "node:crypto";
import os from "node:os";
import {
  QWEN_PLAN_TOOL,
  qwenAsk,
  qwenContext,
  qwenHookInput,
  type QwenHookInput,
  qwenPermission,
  qwenPreDeny,
} from "../lib/external/qwen-hook";
import { approvedNotes, rememberApproved, rememberedApproval } from "./approved-notes";
import { askAndWait, awaitOutcome, submitPlan } from "./await-review";
import { isConnected } from "./connections";
import { runHook } from "./run-hook";

const USAGE =
  "usage: plangate hook qwen [--url URL] [--deadline SECONDS] (run by Qwen Code; see plangate connect qwen)";
const MAX_PLAN = 200_000;

const planHash = (plan: unknown) => createHash("sha256").update(String(plan)).digest("hex");
const refuse = (message: string) => qwenPermission("deny", message);

async function reviewPlan(url: string, input: QwenHookInput, deadline: number): Promise<object> {
  const plan = input.tool_input.plan;
  if (typeof plan !== "string" || plan.trim() === "")
    return refuse("Plangate: exit_plan_mode carried no plan: call it again with the whole plan in markdown.");
  if (plan.length > MAX_PLAN) return refuse(`Plangate: the plan is longer than ${MAX_PLAN} characters.`);
  const submitted = await submitPlan(url, {
    agent: "qwen",
    externalSessionId: input.session_id,
    cwd: input.cwd,
    machine: os.hostname(),
    plan,
  });
  if ("unreachable" in submitted) return refuse(`${submitted.unreachable}: the plan was not reviewed.`);
  if ("refused" in submitted) return refuse(`${submitted.refused}.`);
  process.stderr.write(`plangate: plan sent for review: ${url}/desk?item=${submitted.reviewId}\n`);
  const outcome = await awaitOutcome(url, submitted.reviewId, deadline);
  if (outcome === null)
    return refuse(
      `No decision on Plangate (${url}) in time: the plan is not approved. Call exit_plan_mode to ask again.`,
    );
  if ("gone" in outcome) return refuse(`Plangate: ${outcome.gone}; the plan is not approved.`);
  if (outcome.status !== "approved")
    return refuse(outcome.message ?? "The plan was not approved on Plangate: keep planning.");
  rememberApproved("qwen", input.session_id, submitted.reviewId, { planHash: planHash(plan) });
  // Qwen's own prompt still follows (an allow does not skip it for exit_plan_mode): the person picks the mode there.
  return qwenPermission("allow");
}

/** After Qwen's prompt: the call runs only when this very plan was approved on the desk. */
async function checkApproved(url: string, input: QwenHookInput): Promise<object> {
  const approved = await rememberedApproval(url, "qwen", input.session_id, planHash(input.tool_input.plan));
  return approved
    ? {}
    : qwenPreDeny("This plan was not approved on Plangate: call exit_plan_mode to have it reviewed.");
}

/** With --asks, before one of its write or shell calls runs: the desk's answer (no objection, or a deny). */
async function reviewAsk(url: string, input: QwenHookInput, deadline: number): Promise<object> {
  const ask = qwenAsk(input.tool_name, input.tool_input);
  if (!ask) return qwenPreDeny(`Plangate could not read this ${input.tool_name} call; it is not allowed.`);
  const reply = await askAndWait(
    url,
    { agent: "qwen", externalSessionId: input.session_id, cwd: input.cwd, machine: os.hostname(), ...ask },
    deadline,
  );
  if (reply === null)
    return qwenPreDeny(`Plangate (${url}) gave no answer for this ${input.tool_name} call: not allowed.`);
  if (["allow", "once", "always"].includes(reply.status)) return {};
  return qwenPreDeny(reply.message ?? "A person refused this call on Plangate.");
}

export function run(args: string[]): Promise<number> {
  return runHook(args, {
    usage: USAGE,
    refuse: (why) => ({
      ...refuse(`Plangate's hook was set up wrongly (${why}): run plangate connect qwen again.`),
      ...qwenPreDeny(`Plangate's hook was set up wrongly (${why}): run plangate connect qwen again.`),
    }),
    async handle(raw, url, deadline) {
      const parsed = qwenHookInput.safeParse(raw);
      if (!parsed.success) throw new Error("Plangate's hook could not read what Qwen sent it");
      const input = parsed.data;
      // A project never connected to Plangate goes on as if no hook ran.
      if (!isConnected("qwen", input.cwd)) return {};
      const plan = input.tool_name === QWEN_PLAN_TOOL;
      if (input.hook_event_name === "PostToolUse") {
        if (!plan) return {};
        const outcome = await approvedNotes(url, "qwen", input.session_id);
        return outcome?.message ? qwenContext(outcome.message) : {};
      }
      if (input.hook_event_name === "PreToolUse")
        return plan ? checkApproved(url, input) : reviewAsk(url, input, deadline);
      // Only exit_plan_mode is hooked here; anything else is left to Qwen's own prompt.
      return plan ? reviewPlan(url, input, deadline) : {};
    },
    failed: (raw, why) => {
      const event = (raw as { hook_event_name?: unknown } | undefined)?.hook_event_name;
      // After the tool ran there is nothing left to refuse: the notes are lost, the approval stands.
      if (event === "PostToolUse") return {};
      return event === "PreToolUse"
        ? qwenPreDeny(`Plangate's hook failed (${why}); not allowed.`)
        : refuse(`Plangate's hook failed (${why}); not allowed.`);
    },
  });
}
