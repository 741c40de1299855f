import type { Db } from "../db/client";
import { listPlanComments, listPlanVersions, type PlanCommentRow } from "../db/session-reads/plan-versions";
import { selectVerifications } from "../db/verifications";
import type { SessionEvent, Usage } from "./log/events";
import type { VerificationReport, VerificationView } from "../verify/views/verification-view";
import { getSession, type SessionView } from "./get-session";
import { readEvents } from "../db/session-log/read-events";
import { timelineItems } from "./timeline-items";
import { hasUsage, usageText } from "./usage-text";

export const EXPORT_FORMAT = "plangate.session.v1";

export type SessionExport = {
  format: typeof EXPORT_FORMAT;
  exportedAt: string;
  session: SessionView;
  events: SessionEvent[];
  verifications: VerificationView[];
  /** Reviewers' comments on lines of plan versions. */
  comments: PlanCommentRow[];
  /** The session's tokens in all (as its events report them); null when its model reported none. */
  usage: Usage | null;
};

async function listVerifications(db: Db, sessionId: string): Promise<VerificationView[]> {
  return (await selectVerifications(db, sessionId)).map((r) => ({
    ...r,
    report: JSON.parse(r.report) as VerificationReport,
    createdAt: r.createdAt.toISOString(),
  }));
}

export async function exportJson(db: Db, sessionId: string): Promise<SessionExport> {
  const { session, state } = await getSession(db, sessionId);
  return {
    format: EXPORT_FORMAT,
    exportedAt: new Date().toISOString(),
    session,
    events: await readEvents(db, sessionId),
    verifications: await listVerifications(db, sessionId),
    comments: await listPlanComments(db, sessionId),
    usage: hasUsage(state.usage) ? state.usage : null,
  };
}

const fence = (text: string) => {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(longest + 1);
};

/** A time in the reader's zone, with the zone named (UTC when none is given). */
export function localTime(at: string | Date, tz = "UTC"): string {
  const d = new Date(at);
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: tz,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(d);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}:${get("second")} (${tz})`;
}

/** The file name of an export: the session's title, made safe, and the date. */
export function exportFileName(title: string, ext: "md" | "json", at = new Date()): string {
  const base =
    title
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60)
      .toLowerCase() || "session";
  return `${base}-${at.toISOString().slice(0, 10)}.${ext}`;
}

/** The Markdown export's header: what the session is, and its tokens when its model reported any. */
export function markdownHeader(
  session: Pick<SessionView, "id" | "title" | "workspace" | "agent" | "model" | "createdAt">,
  eventCount: number,
  usage: Usage | null,
  tz = "UTC",
): string[] {
  const tokens = usageText(usage, { unit: false });
  return [
    `# ${session.title}`,
    "",
    `- Session: ${session.id}`,
    `- Workspace: ${session.workspace}`,
    `- Agent: ${session.agent}, model: ${session.model}`,
    `- Created: ${localTime(session.createdAt, tz)}; events: ${eventCount}`,
    ...(tokens ? [`- Tokens: ${tokens}`] : []),
  ];
}

/** The transcript as Markdown: messages (a stopped one marked partial), one line per tool call, notice and decision. */
export function transcriptLines(events: readonly SessionEvent[]): string[] {
  const out: string[] = [];
  for (const item of timelineItems(events)) {
    if (item.kind === "user") out.push(`**User** (#${item.seq}):`, "", item.text, "");
    else if (item.kind === "assistant")
      out.push(
        `**Agent** (#${item.seq}${item.partial ? ", partial — stopped" : ""}${item.tokens ? `; ${item.tokens}` : ""}):`,
        "",
        item.text,
        "",
      );
    else if (item.kind === "tool") out.push(`- #${item.seq} \`${item.tool}\` ${item.summary} → ${item.status}`);
    else if (item.kind === "turn") out.push(`- #${item.seq} ${item.text}${item.tokens ? ` · ${item.tokens}` : ""}`);
    else out.push(`- #${item.seq} ${item.text.replaceAll("\n", " · ")}`);
  }
  return out;
}

/** A readable transcript: messages, one line per tool call and decision, and every plan version with its verdict. */
export async function exportMarkdown(db: Db, sessionId: string, tz = "UTC"): Promise<string> {
  const { session, state } = await getSession(db, sessionId);
  const events = await readEvents(db, sessionId);
  const versions = await listPlanVersions(db, sessionId);
  const out = [
    ...markdownHeader(session, events.length, state.usage, tz),
    "",
    "## Transcript",
    "",
    ...transcriptLines(events),
  ];
  const comments = await listPlanComments(db, sessionId);
  if (versions.length > 0) {
    out.push("", "## Plans", "");
    for (const v of versions) {
      const verdict = v.decision
        ? `${v.decision}${(v.deciderName ?? v.decidedBy) ? ` by ${v.deciderName ?? v.decidedBy}` : ""}${v.decidedAt ? ` at ${localTime(v.decidedAt, tz)}` : ""}`
        : v.status;
      const f = fence(v.content);
      const mine = comments.filter((c) => c.planId === v.planId && c.version === v.version);
      const commentLines = mine.map(
        (c) =>
          `- Line${c.lineStart === c.lineEnd ? ` ${c.lineStart}` : `s ${c.lineStart}–${c.lineEnd}`} (“${c.quote.replaceAll("\n", " ⏎ ")}”): ${c.body}`,
      );
      out.push(
        `### Version ${v.version}: ${verdict}`,
        "",
        ...(v.feedback ? [`Feedback: ${v.feedback}`, ""] : []),
        ...(mine.length ? ["Comments:", ...commentLines, ""] : []),
        `${f}markdown`,
        v.content.trimEnd(),
        f,
        "",
      );
    }
  }
  const verifications = await listVerifications(db, sessionId);
  if (verifications.length > 0) {
    out.push("", "## Verification", "");
    for (const v of verifications) {
      out.push(
        `### Plan version ${v.planVersion}: ${v.report.status} (${v.report.method}, ${localTime(v.createdAt, tz)})`,
        "",
      );
      for (const i of v.report.items)
        out.push(`- ${i.status}: ${i.text}${i.evidence.length ? ` (${i.evidence.join(", ")})` : ` (${i.reason})`}`);
      if (v.report.unplanned.length) out.push(`- unplanned: ${v.report.unplanned.join(", ")}`);
      const t = v.report.test;
      if (t)
        out.push(`- verify \`${t.command}\`: ${t.notRun !== undefined ? "not run" : t.passed ? "passed" : "failed"}`);
      out.push("");
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}
