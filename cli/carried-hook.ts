// What `plangate hook pi` and `plangate hook kilo` share: each answers a module of Plangate's that runs inside the
// agent (pi's extension, Kilo's plugin) with the same messages: `start` (is this folder connected), the agent's plan
// event (on the desk, then the person's answer), and with --asks a changing `tool_call` (an ask on the desk). Neither
// agent puts a timeout on the module, so the hook's own deadline ends a wait, with a refusal; any failure is a no.
import os from "node:os";
import { askAndWait, awaitOutcome, type Outcome, submitPlan } from "./await-review";
import { isConnected } from "./connections";
import { runHook } from "./run-hook";

type Input = { event: string; cwd: string; session_id?: string; tool_name?: string };
type Ask = { tool: string; input: object };
type Answer = { answer: object } | { ask: Ask };

export type CarriedHook<I extends Input> = {
  agent: string;
  /** What runs the hook, in words, e.g. "the pi extension". */
  from: string;
  usage: string;
  schema: { safeParse(raw: unknown): { success: true; data: I } | { success: false } };
  planEvent: string;
  plan: (url: string, input: I, deadline: number) => Promise<object>;
  /** Whether a tool call in this folder is gated (default: the folder is in a connected project). */
  gatesCall?: (cwd: string) => boolean;
  /** A tool call's answer now, or the ask to put on the desk. */
  ask: (input: I, url: string) => Answer | Promise<Answer>;
};

export const refusedPlan = (error: string) => ({ approved: false as const, error });
export const blockCall = (reason: string) => ({ block: true as const, reason });

/**
 * A plan tool's call (pi's and Amp's submit_plan) on the desk, waited on until a person decides or the deadline:
 * the approval's answer, or the refusal in the agent's terms. An agent with no dialog of its own to fall back on
 * gets a refusal from an unreachable or refusing server too: the plan stays unapproved.
 */
export async function reviewPlanOnDesk(
  url: string,
  o: { agent: string; sessionId: string; cwd: string; plan: string; deadline: number },
  terms: { inTerms: (text: string) => string; approved: (outcome: Outcome, reviewId: string) => object },
): Promise<object> {
  if (o.plan.trim() === "") return refusedPlan("The plan is empty: call submit_plan with the whole plan in markdown.");
  const submitted = await submitPlan(url, {
    agent: o.agent,
    externalSessionId: o.sessionId,
    cwd: o.cwd,
    machine: os.hostname(),
    plan: o.plan,
  });
  if ("unreachable" in submitted) return refusedPlan(`${submitted.unreachable}: the plan was not reviewed.`);
  if ("refused" in submitted) return refusedPlan(`${submitted.refused}.`);
  process.stderr.write(`plangate: plan sent for review: ${url}/desk?item=${submitted.reviewId}\n`);
  const outcome = await awaitOutcome(url, submitted.reviewId, o.deadline);
  if (outcome === null)
    return refusedPlan(
      `No decision on Plangate (${url}) in time: the plan is not approved. Call submit_plan to ask again.`,
    );
  if ("gone" in outcome) return refusedPlan(`Plangate: ${outcome.gone}; the plan is not approved.`);
  if (outcome.status === "approved") return terms.approved(outcome, submitted.reviewId);
  return refusedPlan(terms.inTerms(outcome.message ?? "The plan was not approved on Plangate: keep planning."));
}

async function reviewAsk<I extends Input>(h: CarriedHook<I>, url: string, input: I, deadline: number) {
  const next = await h.ask(input, url);
  if ("answer" in next) return next.answer;
  const reply = await askAndWait(
    url,
    { agent: h.agent, externalSessionId: input.session_id, cwd: input.cwd, machine: os.hostname(), ...next.ask },
    deadline,
  );
  if (reply === null)
    return blockCall(`Plangate (${url}) gave no answer for this ${input.tool_name} call: not allowed.`);
  if (["allow", "once", "always"].includes(reply.status)) return {};
  return blockCall(reply.message ?? "A person refused this call on Plangate.");
}

export function runCarriedHook<I extends Input>(args: string[], h: CarriedHook<I>): Promise<number> {
  // Whatever was asked, a failure is a no: the module reads `block` for a tool call and `approved` for a plan.
  const no = (plan: string, call = plan) => ({ ...refusedPlan(plan), ...blockCall(call) });
  return runHook(args, {
    usage: h.usage,
    refuse: (why) =>
      no(`Plangate's ${h.agent} hook was set up wrongly (${why}): run plangate connect ${h.agent} again.`),
    async handle(raw, url, deadline) {
      const parsed = h.schema.safeParse(raw);
      if (!parsed.success) throw new Error(`Plangate's hook could not read what ${h.from} sent it`);
      const input = parsed.data;
      if (input.event === "start") return { connected: isConnected(h.agent, input.cwd) };
      // The module asks only in a connected folder; a folder taken out since answers as one never connected.
      if (input.event !== h.planEvent && !(h.gatesCall ?? ((cwd) => isConnected(h.agent, cwd)))(input.cwd)) return {};
      if (input.event === h.planEvent && !isConnected(h.agent, input.cwd))
        return {
          approved: true,
          unreviewed: true,
          text: "Plangate is not connected in this folder: no review is needed.",
        };
      return input.event === h.planEvent ? h.plan(url, input, deadline) : reviewAsk(h, url, input, deadline);
    },
    failed: (_raw, why) =>
      no(`Plangate's hook failed (${why}); not approved.`, `Plangate's hook failed (${why}); not allowed.`),
  });
}
