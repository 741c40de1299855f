// `plangate hook codex --url URL [--deadline SECONDS]`: what Codex runs as a Stop hook (and, with --asks, as a
// PermissionRequest hook for its shell). At Stop it reads the plan this turn proposed from Codex's transcript,
// puts it on Plangate's desk, and answers with the person's decision: the turn ends (approved), goes on with the
// feedback as the model's next message (sent back), or stops (set aside, no decision in time, server unreachable).
import fs from "node:fs";
import os from "node:os";
import {
  codexBlock,
  codexGoOn,
  codexHookInput,
  codexPermission,
  codexStop,
  type CodexStopInput,
  planOfTurn,
  proposedPlan,
} from "../lib/external/codex-hook";
import { askAndWait, awaitOutcome, submitPlan } from "./await-review";
import { isConnected } from "./connections";
import { runHook } from "./run-hook";

const USAGE = "usage: plangate hook codex [--url URL] [--deadline SECONDS] (run by Codex; see plangate connect codex)";

function planOf(input: CodexStopInput): string | null {
  let transcript = "";
  try {
    if (input.transcript_path) transcript = fs.readFileSync(input.transcript_path, "utf8");
  } catch {}
  // In plan mode the plan is a Plan item of the turn (the message has it stripped); in `codex exec` it is text.
  return planOfTurn(transcript, input.turn_id) ?? proposedPlan(input.last_assistant_message ?? "");
}

async function reviewStop(url: string, input: CodexStopInput, deadline: number): Promise<object> {
  const plan = planOf(input);
  if (plan === null) return codexGoOn();
  const submitted = await submitPlan(url, {
    agent: "codex",
    externalSessionId: input.session_id,
    cwd: input.cwd,
    machine: os.hostname(),
    plan,
    planFilePath: "proposed_plan.md",
  });
  // Codex has no plan dialog of its own to fall back to: a plan nobody reviewed stops the turn.
  if ("unreachable" in submitted) return codexStop(`${submitted.unreachable}: the plan was not reviewed.`);
  if ("refused" in submitted) return codexStop(`${submitted.refused}.`);
  process.stderr.write(`plangate: plan sent for review: ${url}/desk?item=${submitted.reviewId}\n`);
  const outcome = await awaitOutcome(url, submitted.reviewId, deadline);
  if (outcome === null) return codexStop(`No decision on Plangate (${url}) in time: the plan is not approved.`);
  if ("gone" in outcome) return codexStop(`Plangate: ${outcome.gone}; the plan is not approved.`);
  if (outcome.status === "approved") return codexGoOn("Plangate: the plan was approved.");
  if (outcome.status === "rejected")
    return codexBlock(outcome.message ?? "The plan was not approved on Plangate: revise it.");
  return codexStop(outcome.message ?? "The plan was set aside on Plangate.");
}

async function reviewAsk(
  url: string,
  input: { session_id: string; cwd: string; tool_name: string; tool_input: Record<string, unknown> },
  deadline: number,
): Promise<object> {
  const command = input.tool_input.command;
  if (input.tool_name !== "Bash" || typeof command !== "string") return codexGoOn();
  const reply = await askAndWait(
    url,
    {
      agent: "codex",
      externalSessionId: input.session_id,
      cwd: input.cwd,
      machine: os.hostname(),
      tool: "Bash",
      input: { command },
    },
    deadline,
  );
  // No answer from Plangate: Codex's own approval prompt asks the person.
  if (reply === null) return codexGoOn();
  if (["allow", "once", "always"].includes(reply.status)) return codexPermission("allow");
  return codexPermission("deny", reply.message ?? "A person refused this command on Plangate.");
}

export function run(args: string[]): Promise<number> {
  return runHook(args, {
    usage: USAGE,
    refuse: (why) => codexStop(`Plangate's hook was set up wrongly (${why}): run plangate connect codex again.`),
    async handle(raw, url, deadline) {
      const parsed = codexHookInput.safeParse(raw);
      if (!parsed.success) return codexGoOn();
      const input = parsed.data;
      // A project never connected to Plangate goes on as if no hook ran.
      if (!isConnected("codex", input.cwd)) return codexGoOn();
      return input.hook_event_name === "Stop" ? reviewStop(url, input, deadline) : reviewAsk(url, input, deadline);
    },
    // A failed Stop hook would end the turn as if accepted: stop it instead; an ask falls back to Codex's prompt.
    failed: (raw, why) =>
      (raw as { hook_event_name?: unknown } | undefined)?.hook_event_name === "PermissionRequest"
        ? codexGoOn()
        : codexStop(`Plangate's hook failed (${why}): the plan was not reviewed.`),
  });
}
