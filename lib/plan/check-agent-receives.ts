import { receivesOf } from "../core/agent-receives";
import { AppError } from "../errors";
import { isExternalModel } from "../session/external-agents";

type Approval = {
  decision: string;
  feedback?: string | undefined;
  comments?: { body: string; suggestion?: string | undefined }[] | undefined;
  threads?: { reply?: string | undefined }[] | undefined;
  applySuggestions?: boolean | undefined;
};

/**
 * An approval of an outside agent's plan carries only what that agent can receive (see agent-receives): notes
 * it would never see, or an edit it cannot take, are refused by name rather than recorded as sent.
 */
export function checkAgentReceives(session: { agent: string; model: string }, body: Approval, edited: boolean): void {
  if (body.decision !== "approve") return;
  const r = receivesOf(session.agent, isExternalModel(session.model));
  if (!r) return;
  const notes =
    (body.feedback?.trim() ?? "") !== "" ||
    (body.threads ?? []).some((t) => t.reply !== undefined) ||
    (body.comments ?? []).some((c) => c.body !== "" || c.suggestion === undefined || !body.applySuggestions);
  if (notes && !r.notesOnApproval)
    throw new AppError(
      "bad_request",
      `${r.label} does not receive notes with an approval: send the feedback, comments and replies with Request changes, or approve without them`,
    );
  if (edited && !r.editedPlan)
    throw new AppError("bad_request", `${r.label} does not receive an edited plan: approve the plan as it was sent`);
}
