// `plangate hook pi --url URL [--deadline SECONDS]`: what Plangate's pi extension (cli/pi-extension.ts) runs for what
// needs the server: whether the folder is connected, a plan to put on the desk and wait on, an ask after the
// approval (with --asks). Pi puts no timeout on an extension, so the hook's own deadline ends a wait, with a refusal.
import os from "node:os";
import { afterApproval, approvalText, inPiTerms, piBlock, type PiPlanAnswer } from "../lib/external/pi-hook";
import { type PiHookInput, piHookInput } from "../lib/external/pi-hook-input";
import { awaitOutcome, submitPlan } from "./await-review";
import { refusedPlan, runCarriedHook } from "./carried-hook";

const USAGE = "usage: plangate hook pi [--url URL] [--deadline SECONDS] (run by Plangate's pi extension)";

const refused = (error: string): PiPlanAnswer => refusedPlan(error);

async function reviewPlan(url: string, input: Extract<PiHookInput, { event: "submit_plan" }>, deadline: number) {
  if (input.plan.trim() === "") return refused("The plan is empty: call submit_plan with the whole plan in markdown.");
  const submitted = await submitPlan(url, {
    agent: "pi",
    externalSessionId: input.session_id,
    cwd: input.cwd,
    machine: os.hostname(),
    plan: input.plan,
  });
  // Pi has no dialog of its own to fall back on: an unreachable or refusing server leaves the plan unapproved.
  if ("unreachable" in submitted) return refused(`${submitted.unreachable}: the plan was not reviewed.`);
  if ("refused" in submitted) return refused(`${submitted.refused}.`);
  process.stderr.write(`plangate: plan sent for review: ${url}/desk?item=${submitted.reviewId}\n`);
  const outcome = await awaitOutcome(url, submitted.reviewId, deadline);
  if (outcome === null)
    return refused(
      `No decision on Plangate (${url}) in time: the plan is not approved. Call submit_plan to ask again.`,
    );
  if ("gone" in outcome) return refused(`Plangate: ${outcome.gone}; the plan is not approved.`);
  if (outcome.status === "approved") return { approved: true, text: approvalText(outcome) } satisfies PiPlanAnswer;
  return refused(inPiTerms(outcome.message ?? "The plan was not approved on Plangate: keep planning."));
}

export const run = (args: string[]): Promise<number> =>
  runCarriedHook(args, {
    agent: "pi",
    from: "the pi extension",
    usage: USAGE,
    schema: piHookInput,
    planEvent: "submit_plan",
    plan: (url, input, deadline) =>
      input.event === "submit_plan" ? reviewPlan(url, input, deadline) : Promise.resolve(piBlock("not a plan")),
    ask: (input) => (input.event === "tool_call" ? afterApproval(input.tool_name, input.input, true) : { answer: {} }),
  });
