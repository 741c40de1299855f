// Issue 46: what a notice says, from plain facts fixed when it was made. Every message carries one link, to the item
// on the desk, which opens only for the person's own sign-in: no message ever carries anything that decides.
import type { NoticeKind } from "./notify-policy";

export type NoticeFacts = {
  kind: NoticeKind;
  /** plan-review, permission, question, … */
  itemKind: string;
  /** The session's title. */
  title: string;
  workspace: string;
  /** Who asked: the person who started the session, or the agent ("Claude Code"). */
  askedBy: string;
  /** What the policy still needs ("1 of 2 approvals · needs a reviewer of src/db/**"), when it weighs anything. */
  needs: string | null;
  /** For a decision: its word (approve, reject, …) and who made it. */
  decision: { word: string; by: string | null } | null;
  /** For a verification: its outcome in words. */
  verification: string | null;
  /** The desk item (or the session, for a verification). */
  link: string;
};

const WHAT: Record<string, string> = {
  "plan-review": "A plan",
  // Answered from its team's mailbox, by its lead's people: never from a message's button.
  "teammate-plan": "A teammate's plan",
  permission: "A permission ask",
  question: "A question",
};

const DONE: Record<string, string> = {
  approve: "Approved",
  reject: "Changes requested",
  abandon: "Set aside",
  answered: "Answered",
  superseded: "Replaced by a newer version",
};

const itemWord = (kind: string) => WHAT[kind] ?? "An item";

/** The subject line: what happened, then the session's title (a plan's versions share it, so they thread). */
export function noticeSubject(f: NoticeFacts): string {
  const title = f.title.replace(/\s+/g, " ").trim().slice(0, 120) || "Untitled session";
  switch (f.kind) {
    case "waiting":
      return `${itemWord(f.itemKind)} waits for you: ${title}`;
    case "reminder":
      return `Reminder: ${itemWord(f.itemKind).toLowerCase()} still waits for you: ${title}`;
    case "escalation":
      return `Nobody has acted: ${itemWord(f.itemKind).toLowerCase()} waits in ${f.workspace}: ${title}`;
    case "decided":
      return `${decisionWord(f)}: ${title}`;
    case "verification":
      return `Verification failed: ${title}`;
  }
}

function decisionWord(f: NoticeFacts): string {
  const word = DONE[f.decision?.word ?? ""] ?? `Decided (${f.decision?.word ?? "closed"})`;
  return f.decision?.by ? `${word} by ${f.decision.by}` : word;
}

/** The lines of the plain-text part; the HTML part says the same. */
export function noticeLines(f: NoticeFacts): string[] {
  const lines: string[] = [];
  switch (f.kind) {
    case "waiting":
    case "reminder":
      lines.push(`${itemWord(f.itemKind)} from ${f.askedBy} waits for your decision.`);
      break;
    case "escalation":
      lines.push(`${itemWord(f.itemKind)} from ${f.askedBy} has waited with nobody acting; you own ${f.workspace}.`);
      break;
    case "decided":
      lines.push(`${decisionWord(f)}. Nothing more is needed from you.`);
      break;
    case "verification":
      lines.push(`The work after the approved plan did not verify: ${f.verification ?? "see the session"}.`);
      break;
  }
  lines.push(`Session: ${f.title}`, `Workspace: ${f.workspace}`);
  if (f.needs && f.kind !== "decided") lines.push(`Still needed: ${f.needs}`);
  lines.push("", `Open it (you sign in as yourself): ${f.link}`);
  return lines;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** The message: subject, plain text and an HTML part in which every fact is escaped text. */
export function noticeMessage(f: NoticeFacts): { subject: string; text: string; html: string } {
  const lines = noticeLines(f);
  const body = lines
    .slice(0, -1)
    .filter(Boolean)
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join("\n");
  const href = escapeHtml(f.link);
  return {
    subject: noticeSubject(f),
    text: `${lines.join("\n")}\n`,
    html: `<!doctype html><html><body>\n${body}\n<p><a href="${href}">Open it on the desk</a></p>\n</body></html>\n`,
  };
}
