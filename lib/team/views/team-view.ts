/** A teammate's state, as the lead reads it. */
export type TeammateStatus =
  | "planning"
  | "awaiting_approval"
  | "waiting_for_permission"
  | "executing"
  | "interrupted"
  | "done"
  /** Finished, but nothing checked its work against the approved plan (changed, not checked): not to be read as done. */
  | "unverified"
  /** Finished, but the check of its work against the approved plan failed: not to be read as done. */
  | "verification_failed";

export type MemberView = {
  sessionId: string;
  name: string;
  role: "lead" | "teammate";
  title: string;
  mode: string;
  status: string;
  teamStatus: TeammateStatus;
};
export type TeamView = {
  id: string;
  name: string;
  leadSessionId: string;
  personApproval: boolean;
  createdAt: string;
  lead: MemberView | null;
  teammates: MemberView[];
};

export const MAIL_TYPES = ["plan_approval_request", "plan_approval_response", "message"] as const;

export type MailType = (typeof MAIL_TYPES)[number];

export type MailStatus = "unread" | "read" | "answered";

export type MailView = {
  id: string;
  teamId: string;
  seq: number;
  from: string;
  to: string;
  type: MailType;
  requestId: string | null;
  payload: Record<string, unknown>;
  status: MailStatus;
  createdAt: string;
  readAt: string | null;
};
