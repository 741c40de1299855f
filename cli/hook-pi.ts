// `plangate hook pi --url URL [--deadline SECONDS]`: what Plangate's pi extension (cli/pi-extension.ts) runs for what
// needs the server: whether the folder is connected, a plan to put on the desk and wait on, an ask after the
// approval (with --asks). Pi puts no timeout on an extension, so the hook's own deadline ends a wait, with a refusal.
import { afterApproval, approvalText, inPiTerms, piBlock, type PiPlanAnswer } from "../lib/external/pi-hook";
import { piHookInput } from "../lib/external/pi-hook-input";
import { refusedPlan, reviewPlanOnDesk, runCarriedHook } from "./carried-hook";

const USAGE = "usage: plangate hook pi [--url URL] [--deadline SECONDS] (run by Plangate's pi extension)";

export const run = (args: string[]): Promise<number> =>
  runCarriedHook(args, {
    agent: "pi",
    from: "the pi extension",
    usage: USAGE,
    schema: piHookInput,
    planEvent: "submit_plan",
    plan: (url, input, deadline) =>
      input.event === "submit_plan"
        ? reviewPlanOnDesk(
            url,
            { agent: "pi", sessionId: input.session_id, cwd: input.cwd, plan: input.plan, deadline },
            {
              inTerms: inPiTerms,
              approved: (outcome) => ({ approved: true, text: approvalText(outcome) }) satisfies PiPlanAnswer,
            },
          )
        : Promise.resolve(piBlock("not a plan")),
    ask: (input) => (input.event === "tool_call" ? afterApproval(input.tool_name, input.input, true) : { answer: {} }),
  });
