// `plangate hook cline --url URL [--deadline SECONDS]`: what Plangate's Cline plugin (cli/cline-plugin.ts) runs for
// what needs the server: whether the folder is connected, and a plan to put on the desk and wait on. Cline gives a
// plugin tool 60 s, so one call waits until its deadline (50 s, written by connect) and then answers that the plan
// still waits; the model's next submit_plan with the same plan waits on the same review.
import os from "node:os";
import { approvalText, type ClinePlanAnswer, inClineTerms, stillWaiting } from "../lib/external/cline-hook";
import { type ClineHookInput, clineHookInput } from "../lib/external/cline-hook-input";
import { rememberApproved } from "./approved-notes";
import { awaitOutcome, submitPlan } from "./await-review";
import { blockCall, refusedPlan, runCarriedHook } from "./carried-hook";

const USAGE = "usage: plangate hook cline [--url URL] [--deadline SECONDS] (run by Plangate's Cline plugin)";
// The answer leaves before the hook's own watchdog, which would answer a refusal instead of "still waiting".
const MARGIN_MS = 2_000;

async function reviewPlan(
  url: string,
  input: Extract<ClineHookInput, { event: "submit_plan" }>,
  deadline: number,
): Promise<ClinePlanAnswer> {
  if (input.plan.trim() === "")
    return refusedPlan("The plan is empty: call submit_plan with the whole plan in markdown.");
  let reviewId = input.review_id;
  if (!reviewId) {
    const submitted = await submitPlan(url, {
      agent: "cline",
      externalSessionId: input.session_id,
      cwd: input.cwd,
      machine: os.hostname(),
      plan: input.plan,
    });
    // Cline has no dialog of its own to fall back on: an unreachable or refusing server leaves the plan unapproved.
    if ("unreachable" in submitted) return refusedPlan(`${submitted.unreachable}: the plan was not reviewed.`);
    if ("refused" in submitted) return refusedPlan(`${submitted.refused}.`);
    reviewId = submitted.reviewId;
    process.stderr.write(`plangate: plan sent for review: ${url}/desk?item=${reviewId}\n`);
  }
  const outcome = await awaitOutcome(url, reviewId, deadline - MARGIN_MS);
  if (outcome === null) return { approved: false, error: stillWaiting(url), pending: { reviewId } };
  if ("gone" in outcome) return refusedPlan(`Plangate: ${outcome.gone}; the plan is not approved.`);
  if (outcome.status === "approved") {
    // For the backstop hook (cli/hook-cline-tools.ts), which finds the approval by Cline's conversation.
    if (input.conversation_id) rememberApproved("cline", input.conversation_id, reviewId);
    return { approved: true, text: approvalText(outcome) };
  }
  return refusedPlan(inClineTerms(outcome.message ?? "The plan was not approved on Plangate: keep planning."));
}

export const run = (args: string[]): Promise<number> =>
  runCarriedHook(args, {
    agent: "cline",
    from: "the Cline plugin",
    usage: USAGE,
    schema: clineHookInput,
    planEvent: "submit_plan",
    plan: (url, input, deadline) =>
      input.event === "submit_plan" ? reviewPlan(url, input, deadline) : Promise.resolve(refusedPlan("not a plan")),
    // The plugin sends no asks: Cline gives its beforeTool 3 s, too short for a person's answer.
    ask: () => ({ answer: blockCall("Plangate takes no asks from Cline.") }),
  });
