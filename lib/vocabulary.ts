/**
 * The words the pages use for the app's states: one vocabulary for the mode chip, the timeline, History,
 * replay and the lists, so raw values (`awaiting_review`, `acceptEdits`, review ids) never reach a person.
 */
export const MODE_LABEL: Record<string, string> = {
  default: "Ask before edits",
  acceptEdits: "Auto-accept edits",
  plan: "Plan",
  auto: "Auto",
  bypassPermissions: "Bypass permissions",
};

export const STATUS_LABEL: Record<string, string> = {
  awaiting_review: "Plan awaiting review",
  awaiting_permission: "Waiting for permission",
  running: "Running",
  interrupted: "Interrupted",
  idle: "Idle",
};

export const PLAN_STATUS_LABEL: Record<string, string> = {
  draft: "plan being written",
  submitted: "plan awaiting review",
  approved: "plan approved",
  rejected: "plan sent back",
  abandoned: "plan set aside",
  answered_elsewhere: "plan answered in the terminal",
};

export const MAIL_STATUS_LABEL: Record<string, string> = {
  unread: "not read yet",
  read: "read",
  answered: "answered",
};

export const CAUSE_LABEL: Record<string, string> = {
  user: "by you",
  command: "by a command",
  tool: "by the agent",
  review: "by the plan review",
  restore: "back to the mode before plan mode",
  fallback: "fallback (the chosen mode is not allowed now)",
  resume: "on resume",
  fork: "in the fork",
};

export const modeLabel = (mode: string | null | undefined): string => (mode ? (MODE_LABEL[mode] ?? mode) : "none");

export function describeModeChange(from: string, to: string, cause: string): string {
  return `Mode: ${modeLabel(from)} → ${modeLabel(to)} (${CAUSE_LABEL[cause] ?? cause})`;
}
