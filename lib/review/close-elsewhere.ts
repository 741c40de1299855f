// Pure: closings no reviewer decides — an outside agent's own terminal answered first, or a newer version replaced it.
import type { NewEvent } from "../session/log/events";
import { refuse } from "./close-decision";
import type { Outcome, ReviewFacts, Row, TerminalAnswer } from "./review-types";

const TEXT: Record<TerminalAnswer["answer"], string> = {
  approved: "Approved in the agent's own terminal.",
  rejected: "Rejected in the agent's own terminal.",
  unknown: "Answered in the agent's own terminal.",
};

/**
 * The agent's own dialog answered the plan before the desk did (Claude Code shows both; the first answer wins and a
 * late hook answer is ignored). The review closes as "answered_elsewhere" — never left pending, never counted as the
 * desk's approval — and the exit call's result says what the terminal chose when known. Only an outside agent's.
 */
export function answeredElsewhere(
  facts: Pick<ReviewFacts, "review" | "version" | "state">,
  answer: TerminalAnswer["answer"],
): Outcome {
  if (!facts.version.outside)
    return refuse("forbidden", "That review belongs to a Plangate agent's session, not an outside agent's.");
  const text = TEXT[answer];
  const callId = facts.version.toolCallId;
  const events: NewEvent[] = [
    { type: "review.answered", payload: { reviewId: facts.review.id, decision: "answered_elsewhere", feedback: text } },
    ...(callId
      ? [
          {
            type: "tool.result" as const,
            payload: {
              callId,
              tool: "exit_plan_mode",
              ok: answer === "approved",
              ...(answer === "approved" ? { output: text } : { error: text }),
            },
          },
        ]
      : []),
    ...(facts.state.openTurnId
      ? [{ type: "turn.ended" as const, payload: { turnId: facts.state.openTurnId, reason: "done" as const } }]
      : []),
  ];
  const rows: Row[] = [
    { kind: "close", status: "answered_elsewhere", decision: answer, decidedBy: "terminal", feedback: text },
  ];
  return { status: "closed", events, rows, effects: [], held: [] };
}

/** Pure: the rows that close a review a newer version replaced, and dismiss the approvals it gathered. */
export function supersededRows(newVersion: number, decidedBy: string): Row[] {
  return [
    { kind: "close", status: "abandoned", decision: "superseded", decidedBy, feedback: null },
    { kind: "dismiss-approvals", newVersion },
  ];
}
