// The words the agent receives with a decision on its plan, and what an outside agent can receive at all.
import type { AgentReceives } from "./rules/agent-receives";
import type { PermissionMode } from "../permission";

/** The heading the approved plan goes under (the offline model looks for it). */
export const APPROVED_PLAN_HEADING = "## Approved Plan";

const APPROVERS: Record<string, string> = {
  "lead-model": "Your team lead's model has approved your plan (no person reviewed it).",
  lead: "A person has approved your plan in the team mailbox.",
};

/**
 * What the model reads when the plan is approved (headed "edited by user" only when it really was), who approved
 * it, and the reviewer's notes when there are any.
 */
export function approvalMessage(
  plan: string,
  file: string,
  edited: boolean,
  mode: PermissionMode,
  decidedBy = "user",
  notes?: string,
): string {
  return [
    `${APPROVERS[decidedBy] ?? "User has approved your plan."} You can now start executing it (permission mode: ${mode}).`,
    ...(notes ? ["", "Notes from the reviewer, to follow while you carry out the plan:", notes.trim()] : []),
    `The plan is saved at ${file}; follow it, and keep it as the reference for what was agreed.`,
    "",
    edited ? `${APPROVED_PLAN_HEADING} (edited by user)` : APPROVED_PLAN_HEADING,
    "",
    plan.trim(),
  ].join("\n");
}

/** What the model reads when the plan is sent back (feedback, then the line comments and thread answers). */
export function rejectionMessage(feedback: string | undefined, reviewText: string): string {
  return `The user did not approve the plan and wants you to keep planning.${feedback ? ` Their feedback:\n${feedback}` : ""}${reviewText ? `\n\n${reviewText}` : ""}\nRevise the plan file, then call exit_plan_mode again.`;
}

/**
 * A reviewer's edit under a review policy: the edited plan is a new version the policy must weigh again, so it goes
 * back to the agent to submit (our agent finds it already written to its plan file).
 */
export function sendBackEditMessage(plan: string, file: string, notes: string, written: boolean): string {
  return [
    "The reviewer changed your plan. Under this workspace's review policy a changed plan is a new version that needs its approvals again.",
    written
      ? `The changed plan is saved at ${file}: call exit_plan_mode again to submit it for review as it stands.`
      : "Replace your plan with the text below and submit it again for review.",
    ...(notes ? ["", "Notes from the reviewer:", notes.trim()] : []),
    "",
    "## Plan as changed by the reviewer",
    "",
    plan.trim(),
  ].join("\n");
}

export const ABANDON_MESSAGE =
  "The user closed the plan review to talk instead. Stay in plan mode, stop here and wait for their message.";

const lineWords = (c: { lineStart: number; lineEnd: number }) =>
  c.lineStart === c.lineEnd ? `Line ${c.lineStart}` : `Lines ${c.lineStart}–${c.lineEnd}`;

const quoted = (text: string, mark: string) =>
  text
    .split("\n")
    .map((l) => `  ${mark} ${l}`)
    .join("\n");

/** The comments as the model reads them: each quoting its lines, then the reviewer's words and suggestion. */
export function formatComments(
  comments: readonly { lineStart: number; lineEnd: number; quote: string; body: string; suggestion?: string }[],
): string {
  if (comments.length === 0) return "";
  const blocks = comments.map((c) =>
    [
      `- ${lineWords(c)}:\n${quoted(c.quote, ">")}`,
      ...(c.body ? [`  ${c.body.replace(/\n/g, "\n  ")}`] : []),
      ...(c.suggestion !== undefined
        ? [
            c.suggestion === ""
              ? "  Suggested: remove these lines."
              : `  Suggested text for these lines:\n${quoted(c.suggestion, "+")}`,
          ]
        : []),
    ].join("\n"),
  );
  return `Comments on lines of the plan (${comments.length}):\n${blocks.join("\n")}`;
}

/** Replies to earlier threads, and the threads the reviewer resolved, as the model reads them. */
export function formatThreads(answered: readonly { quote: string; reply?: string; resolve?: true }[]): string {
  if (answered.length === 0) return "";
  const lines = answered.map(
    (t) => `- On “${t.quote.split("\n")[0]}”: ${[t.reply, t.resolve ? "(resolved)" : ""].filter(Boolean).join(" ")}`,
  );
  return `On earlier comments (${answered.length}):\n${lines.join("\n")}`;
}

type Approval = {
  decision: string;
  feedback?: string | undefined;
  comments?: { body: string; suggestion?: string | undefined }[] | undefined;
  threads?: { reply?: string | undefined }[] | undefined;
  applySuggestions?: boolean | undefined;
};

/**
 * An approval of an outside agent's plan carries only what that agent can receive: notes it would never see, or an
 * edit it cannot take, are refused by name (the problem returned) rather than recorded as sent.
 */
export function unreceived(r: AgentReceives | null, body: Approval, edited: boolean): string | null {
  if (body.decision !== "approve" || !r) return null;
  const notes =
    (body.feedback?.trim() ?? "") !== "" ||
    (body.threads ?? []).some((t) => t.reply !== undefined) ||
    (body.comments ?? []).some((c) => c.body !== "" || c.suggestion === undefined || !body.applySuggestions);
  if (notes && !r.notesOnApproval)
    return `${r.label} does not receive notes with an approval: send the feedback, comments and replies with Request changes, or approve without them`;
  if (edited && !r.editedPlan) return `${r.label} does not receive an edited plan: approve the plan as it was sent`;
  return null;
}
