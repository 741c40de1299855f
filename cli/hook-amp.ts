// `plangate hook amp --url URL [--deadline SECONDS]`: what Plangate's Amp plugin (cli/amp-plugin.ts) runs for a
// plan: on the desk under Amp's thread, then the person's answer. An approval is remembered by the thread, where
// the permission delegate (cli/hook-amp-delegate.ts) finds it. Amp puts no timeout on a plugin tool that we know
// of, so the hook's own deadline ends a wait, with a refusal.
import { approvalKey, approvalText, inAmpTerms } from "../lib/external/amp-hook";
import { ampHookInput } from "../lib/external/amp-hook-input";
import { rememberApproved } from "./approved-notes";
import { blockCall, refusedPlan, reviewPlanOnDesk, runCarriedHook } from "./carried-hook";

const USAGE = "usage: plangate hook amp [--url URL] [--deadline SECONDS] (run by Plangate's Amp plugin)";

export const run = (args: string[]): Promise<number> =>
  runCarriedHook(args, {
    agent: "amp",
    from: "the Amp plugin",
    usage: USAGE,
    schema: ampHookInput,
    planEvent: "submit_plan",
    plan: (url, input, deadline) =>
      input.event === "submit_plan"
        ? reviewPlanOnDesk(
            url,
            { agent: "amp", sessionId: input.session_id, cwd: input.cwd, plan: input.plan, deadline },
            {
              inTerms: inAmpTerms,
              approved: (outcome, reviewId) => {
                rememberApproved("amp", approvalKey(input.session_id, input.cwd), reviewId);
                return { approved: true, text: approvalText(outcome) };
              },
            },
          )
        : Promise.resolve(refusedPlan("not a plan")),
    // Amp's asks go through its permission delegate, never through the plugin.
    ask: () => ({ answer: blockCall("Plangate's Amp plugin sends no asks.") }),
  });
