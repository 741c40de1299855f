// `plangate hook pi --url URL [--deadline SECONDS]`: what Plangate's pi extension (cli/pi-extension.ts) runs for what
// needs the server: whether the folder is connected, a plan to put on the desk and wait on, an ask after the
// approval (with --asks). Pi puts no timeout on an extension, so the hook's own deadline ends a wait, with a refusal.
import os from "node:os";
import {
  afterApproval,
  approvalText,
  inPiTerms,
  piBlock,
  type PiPlanAnswer,
  type PiToolAnswer,
} from "../lib/external/pi-hook";
import { type PiHookInput, piHookInput } from "../lib/external/pi-hook-input";
import { askAndWait, awaitOutcome, submitPlan } from "./await-review";
import { isConnected } from "./connections";
import { runHook } from "./run-hook";

const USAGE = "usage: plangate hook pi [--url URL] [--deadline SECONDS] (run by Plangate's pi extension)";

const refused = (error: string): PiPlanAnswer => ({ approved: false, error });

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

async function reviewAsk(
  url: string,
  input: Extract<PiHookInput, { event: "tool_call" }>,
  deadline: number,
): Promise<PiToolAnswer> {
  const next = afterApproval(input.tool_name, input.input, true);
  if ("answer" in next) return next.answer;
  const reply = await askAndWait(
    url,
    { agent: "pi", externalSessionId: input.session_id, cwd: input.cwd, machine: os.hostname(), ...next.ask },
    deadline,
  );
  if (reply === null) return piBlock(`Plangate (${url}) gave no answer for this ${input.tool_name} call: not allowed.`);
  if (["allow", "once", "always"].includes(reply.status)) return {};
  return piBlock(reply.message ?? "A person refused this call on Plangate.");
}

export function run(args: string[]): Promise<number> {
  return runHook(args, {
    usage: USAGE,
    refuse: (why) => ({
      ...refused(`Plangate's pi hook was set up wrongly (${why}): run plangate connect pi again.`),
      ...piBlock(`Plangate's pi hook was set up wrongly (${why}): run plangate connect pi again.`),
    }),
    async handle(raw, url, deadline) {
      const parsed = piHookInput.safeParse(raw);
      if (!parsed.success) throw new Error("Plangate's hook could not read what the pi extension sent it");
      const input = parsed.data;
      if (input.event === "start") return { connected: isConnected("pi", input.cwd) };
      // The extension asks only in a connected folder; a folder taken out since answers as one never connected.
      if (!isConnected("pi", input.cwd))
        return input.event === "submit_plan"
          ? ({ approved: true, text: "Plangate is not connected in this folder: no review is needed." } as const)
          : {};
      return input.event === "submit_plan" ? reviewPlan(url, input, deadline) : reviewAsk(url, input, deadline);
    },
    // Whatever was asked, a failure is a no: the extension reads `block` for a tool call and `approved` for a plan.
    failed: (_raw, why) => ({
      ...refused(`Plangate's hook failed (${why}); not approved.`),
      ...piBlock(`Plangate's hook failed (${why}); not allowed.`),
    }),
  });
}
