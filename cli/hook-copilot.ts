// `plangate hook copilot --url URL [--deadline SECONDS] [--asks]`: what GitHub Copilot CLI runs as a preToolUse hook
// for exit_plan_mode and for its shell and write tools. It reads the session's plan.md, puts it on Plangate's desk
// and answers with the person's decision; the shell and write calls wait for that approval (then, with --asks, for
// the desk's answer to each). Copilot lets a tool run when its hook prints nothing or
// times out, so every path here ends in an explicit answer, before Copilot's timeout.
import os from "node:os";
import path from "node:path";
import {
  COPILOT_PLAN_TOOL,
  copilotAllow,
  copilotAsk,
  copilotDeny,
  copilotHookInput,
  type CopilotHookInput,
  copilotPlanFile,
} from "../lib/external/copilot-hook";
import { rememberApproved, rememberedApproval } from "./approved-notes";
import { askAndWait, awaitOutcome, submitPlan } from "./await-review";
import { isConnected } from "./connections";
import { readPlanFile } from "./read-plan-file";
import { runHook } from "./run-hook";

const USAGE =
  "usage: plangate hook copilot [--url URL] [--deadline SECONDS] (run by GitHub Copilot CLI; see plangate connect copilot)";
const MAX_PLAN_BYTES = 200_000;

export const copilotHome = () => process.env.COPILOT_HOME || path.join(os.homedir(), ".copilot");

/** The session's plan.md: a regular file (a link is never followed), within the size limit; or what is wrong. */
const readPlan = (input: CopilotHookInput) =>
  readPlanFile(copilotPlanFile(copilotHome(), input.sessionId), MAX_PLAN_BYTES, COPILOT_PLAN_TOOL);

async function reviewPlan(url: string, input: CopilotHookInput, deadline: number): Promise<object> {
  const plan = readPlan(input);
  if (typeof plan !== "string") return copilotDeny(`Plangate: ${plan.problem}.`);
  const submitted = await submitPlan(url, {
    agent: "copilot",
    externalSessionId: input.sessionId,
    cwd: input.cwd,
    machine: os.hostname(),
    plan,
    planFilePath: copilotPlanFile(copilotHome(), input.sessionId),
  });
  if ("unreachable" in submitted) return copilotDeny(`${submitted.unreachable}: the plan was not reviewed.`);
  if ("refused" in submitted) return copilotDeny(`${submitted.refused}.`);
  process.stderr.write(`plangate: plan sent for review: ${url}/desk?item=${submitted.reviewId}\n`);
  const outcome = await awaitOutcome(url, submitted.reviewId, deadline);
  if (outcome === null)
    return copilotDeny(
      `No decision on Plangate (${url}) in time: the plan is not approved. Call exit_plan_mode to ask again.`,
    );
  if ("gone" in outcome) return copilotDeny(`Plangate: ${outcome.gone}; the plan is not approved.`);
  if (outcome.status !== "approved")
    return copilotDeny(outcome.message ?? "The plan was not approved on Plangate: keep planning.");
  rememberApproved("copilot", input.sessionId, submitted.reviewId);
  // What Plangate's own agent would read (who approved, the notes, the plan as approved) reaches the model as context.
  return copilotAllow(
    outcome.message && outcome.edited
      ? `${outcome.message}\n\n(The reviewer edited the plan on Plangate: follow this text, not plan.md's.)`
      : (outcome.message ?? undefined),
  );
}

/** Whether a write is to this session's plan.md: Copilot's plan mode decides those (it allows that file only). */
function isPlanFile(input: CopilotHookInput): boolean {
  const target = input.toolArgs.path;
  return typeof target === "string" && path.resolve(target) === copilotPlanFile(copilotHome(), input.sessionId);
}

/**
 * A shell or write call in a connected folder: refused until this session's plan is approved on the desk (Copilot's
 * own plan-mode check lets writing commands through); after it, with --asks, the desk's answer, otherwise no
 * objection (Copilot's own rules decide).
 */
async function reviewCall(url: string, input: CopilotHookInput, deadline: number, asks: boolean): Promise<object> {
  if ((input.toolName === "create" || input.toolName === "edit") && isPlanFile(input)) return {};
  if (!(await rememberedApproval(url, "copilot", input.sessionId)))
    return copilotDeny(
      `Plangate's plan mode: ${input.toolName} is not allowed until your plan is approved on Plangate. Read with view, grep and glob, write the plan to plan.md, then call exit_plan_mode.`,
    );
  if (!asks) return {};
  const ask = copilotAsk(input.toolName, input.toolArgs);
  if (!ask) return copilotDeny(`Plangate could not read this ${input.toolName} call; it is not allowed.`);
  const reply = await askAndWait(
    url,
    { agent: "copilot", externalSessionId: input.sessionId, cwd: input.cwd, machine: os.hostname(), ...ask },
    deadline,
  );
  if (reply === null)
    return copilotDeny(`Plangate (${url}) gave no answer for this ${input.toolName} call: not allowed.`);
  if (["allow", "once", "always"].includes(reply.status)) return copilotAllow();
  return copilotDeny(reply.message ?? "A person refused this call on Plangate.");
}

export function run(args: string[]): Promise<number> {
  return runHook(args, {
    usage: USAGE,
    refuse: (why) => copilotDeny(`Plangate's hook was set up wrongly (${why}): run plangate connect copilot again.`),
    async handle(raw, url, deadline, asks) {
      const parsed = copilotHookInput.safeParse(raw);
      if (!parsed.success)
        return copilotDeny("Plangate's hook could not read what Copilot sent it; the call is not allowed.");
      const input = parsed.data;
      // A project never connected to Plangate goes on as if no hook ran (an empty answer is Copilot's "no opinion").
      if (!isConnected("copilot", input.cwd)) return {};
      return input.toolName === COPILOT_PLAN_TOOL
        ? reviewPlan(url, input, deadline)
        : reviewCall(url, input, deadline, asks);
    },
    failed: (_raw, why) => copilotDeny(`Plangate's hook failed (${why}); not allowed.`),
  });
}
