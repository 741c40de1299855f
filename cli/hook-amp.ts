// `plangate hook amp --url URL [--deadline SECONDS]`: what Plangate's Amp plugin (cli/amp-plugin.ts) runs for a
// plan: on the desk under Amp's thread, then the person's answer, and whether a changing call may go on (the
// plugin's own gate). An approval is remembered by the thread with its folder (Amp's workspace root), where the
// permission delegate (cli/hook-amp-delegate.ts) finds it for calls in that folder or under it. Amp puts no
// timeout on a plugin tool that we know of, so the hook's own deadline ends a wait, with a refusal.
import path from "node:path";
import { approvalText, beforeApproval, inAmpTerms } from "../lib/external/amp-hook";
import { ampHookInput } from "../lib/external/amp-hook-input";
import { forgetApproved, rememberApproved, rememberedApprovalIn } from "./approved-notes";
import { ampDelegatePath, ampDelegateRule } from "./amp-delegate-file";
import { delegateInForce } from "./amp-settings";
import { gatesAny } from "./connections";
import { blockCall, refusedPlan, reviewPlanOnDesk, runCarriedHook } from "./carried-hook";

const USAGE = "usage: plangate hook amp [--url URL] [--deadline SECONDS] (run by Plangate's Amp plugin)";

export const run = (args: string[]): Promise<number> =>
  runCarriedHook(args, {
    agent: "amp",
    from: "the Amp plugin",
    usage: USAGE,
    schema: ampHookInput,
    planEvent: "submit_plan",
    plan: (url, input, deadline) => {
      if (input.event !== "submit_plan") return Promise.resolve(refusedPlan("not a plan"));
      // A new plan is planned again: an earlier approval of the thread no longer opens the gate, whatever comes of it.
      forgetApproved("amp", input.session_id);
      return reviewPlanOnDesk(
        url,
        { agent: "amp", sessionId: input.session_id, cwd: input.cwd, plan: input.plan, deadline },
        {
          inTerms: inAmpTerms,
          approved: (outcome, reviewId) => {
            rememberApproved("amp", input.session_id, reviewId, { folder: input.cwd });
            return { approved: true, text: approvalText(outcome) };
          },
        },
      );
    },
    // Amp started in a folder above a connected project (a monorepo's top) is gated too: more, never less.
    gatesCall: (cwd) => gatesAny("amp", [cwd]),
    // The plugin's own gate (behind the delegate): before the thread's plan is approved here, only reading. Asks
    // go through the delegate, never through the plugin.
    ask: async (input, url) => {
      if (input.event !== "tool_call") return { answer: blockCall("Plangate's Amp plugin sends no asks.") };
      // Amp reads a project's settings only from the folder it starts in up to its git repository: started elsewhere,
      // no delegate decides (no asks, no refusals), so nothing changing goes on.
      if (!delegateInForce(input.cwd, (file) => ampDelegateRule(ampDelegatePath(path.dirname(path.dirname(file))))))
        return {
          answer: blockCall(
            `Plangate: Amp runs in ${input.cwd}, where its settings do not hand calls to Plangate's delegate (Amp reads .amp/settings.json only from the folder it starts in, up to its git repository): start Amp in the connected project's folder; ${input.tool_name} is not allowed.`,
          ),
        };
      const approved = await rememberedApprovalIn(url, "amp", input.session_id, input.cwd);
      const d = approved ? null : beforeApproval(input.tool_name);
      return { answer: d?.exit === 2 ? blockCall(d.reason) : {} };
    },
  });
