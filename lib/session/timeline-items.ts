import { describeModeChange, modeLabel } from "../vocabulary";
import type { SessionEvent } from "./log/events";
import { usageText } from "./usage-text";
import { claimLine, signedLine } from "./log/imported-claims";

export type ToolItem = {
  kind: "tool";
  seq: number;
  callId: string;
  tool: string;
  summary: string;
  /** waiting: on a person (its review or permission ask); returned: a plan sent back for more planning. */
  status: "running" | "waiting" | "ok" | "returned" | "error";
  output: string | null;
  diff: string | null;
  /** When the call was issued (ISO), and how long it took from there to its result. */
  at?: string;
  ms?: number;
};

/** One line of the session as people read it; tool calls carry their result (shown on demand). */
export type TimelineItem =
  | { kind: "user"; seq: number; text: string }
  /** partial: the text streamed before the person stopped the turn. tokens: that model request's, in words. */
  | { kind: "assistant"; seq: number; text: string; partial?: true; tokens?: string }
  | ToolItem
  | { kind: "mode"; seq: number; text: string; to: string }
  | { kind: "plan"; seq: number; text: string; planVersion?: number }
  /** tokens: the turn's, summed over its model requests, in words. */
  | { kind: "turn"; seq: number; text: string; tokens?: string }
  | { kind: "decision" | "permission" | "notice" | "retry" | "todo"; seq: number; text: string }
  | { kind: "verification"; seq: number; text: string; status: "pass" | "fail" | "unverified"; verificationId: string };

const MAX_OUTPUT = 20_000;

/** Events per timeline page: the session page renders the latest page, earlier ones load on demand. */
export const TIMELINE_PAGE = 100;

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function field(input: unknown, key: string): string | undefined {
  return input && typeof input === "object" ? str((input as Record<string, unknown>)[key]) : undefined;
}

/** The one thing worth reading about a call: its path, command or pattern. */
export function summarizeCall(tool: string, input: unknown): string {
  const pick = (...keys: string[]) => keys.map((k) => field(input, k)).find((v) => v !== undefined);
  switch (tool) {
    case "bash":
      return pick("command") ?? "";
    case "read":
    case "write":
    case "edit":
    case "list":
      return pick("path", "filePath") ?? ".";
    case "grep":
    case "glob":
      return [pick("pattern"), pick("path")].filter(Boolean).join(" in ");
    case "task":
      return [pick("agent"), pick("description", "prompt")].filter(Boolean).join(": ").slice(0, 160);
    case "exit_plan_mode":
      return "plan submitted for review";
    case "enter_plan_mode":
      return "entering plan mode";
    case "apply_patch": {
      const files = [...(pick("patch") ?? "").matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => m[1]);
      return files.join(", ");
    }
    default: {
      const text = JSON.stringify(input ?? null);
      return text.length > 160 ? `${text.slice(0, 159)}…` : text;
    }
  }
}

function outputText(output: unknown): string {
  const text = typeof output === "string" ? output : JSON.stringify(output ?? "", null, 2);
  return text.length > MAX_OUTPUT
    ? `${text.slice(0, MAX_OUTPUT)}\n… (${text.length - MAX_OUTPUT} more characters)`
    : text;
}

/** Why a turn ended, in words ("max_tokens": it passed PLANGATE_MAX_TURN_TOKENS). */
const TURN_ENDS: Record<string, string> = { max_steps: "max steps", max_tokens: "token limit reached" };

const REPLIES: Record<string, string> = { once: "Allowed once", always: "Allowed always", reject: "Rejected" };
const DECISIONS: Record<string, string> = {
  approve: "Plan approved",
  reject: "Plan sent back",
  abandon: "Review set aside",
  answered: "Question answered",
  // An outside agent's plan answered in its own terminal first, or replaced by a newer plan of the same session.
  answered_elsewhere: "Answered in the terminal",
  superseded: "Replaced by a newer plan",
};

/**
 * Team mail as people read it: who sent what, without the protocol the model answers to (request ids,
 * send_message instructions). The full text stays in the log for the model.
 */
export function teamMailSummary(text: string): string {
  const lines: string[] = [];
  for (const block of text
    .replace(/^\[Team mailbox\]\s*/, "")
    .split(/\n\n(?=(?:plan_approval_request|plan_approval_response|message) from )/)) {
    const request = /^plan_approval_request from (\S+) \(requestId [^,]+, version (\d+)/.exec(block);
    const response =
      /^plan_approval_response from (\S+) \(requestId [^)]+\): (approved|rejected)(?:\. Feedback: ([\s\S]*))?/.exec(
        block,
      );
    const message = /^message from (\S+): ([\s\S]*)$/.exec(block);
    if (request)
      lines.push(`Team mail: ${request[1]}'s plan (version ${request[2]}) is waiting for approval in the team mailbox`);
    else if (response)
      lines.push(
        `Team mail: ${response[1]} ${response[2] === "approved" ? "approved the plan" : "sent the plan back"}${response[3] ? `: ${response[3]}` : ""}`,
      );
    else if (message) lines.push(`Team mail from ${message[1]}: ${message[2]}`);
  }
  return lines.length > 0 ? lines.join("\n") : "Team mail";
}

/** A notice as people read it: the ids it names for the log ("(request rev_…)") are not words for them. */
export const withoutIds = (text: string): string =>
  text.replace(/\s*\((?:request|review|requestId) [a-z]{2,5}_[0-9a-z]+\)/g, "");

/** Pure: folds a page of the log into timeline items (a result joins its call when both are on the page). */
export function timelineItems(events: readonly SessionEvent[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  const calls = new Map<string, ToolItem>();
  // A call waiting on a person is not running: its line says so until the person answers.
  const asking = new Map<string, string>();
  const waitOn = (callId: string | undefined) => {
    const call = callId ? calls.get(callId) : undefined;
    if (call?.status === "running") call.status = "waiting";
  };
  for (const e of events) {
    switch (e.type) {
      case "message.user":
        if (e.payload.source === "team")
          items.push({ kind: "notice", seq: e.seq, text: teamMailSummary(e.payload.text) });
        else if (e.payload.source !== "system") items.push({ kind: "user", seq: e.seq, text: e.payload.text });
        break;
      case "message.assistant": {
        if (!e.payload.text.trim()) break;
        const tokens = usageText(e.payload.usage);
        items.push({
          kind: "assistant",
          seq: e.seq,
          text: e.payload.text,
          ...(e.payload.partial ? { partial: true as const } : {}),
          ...(tokens ? { tokens } : {}),
        });
        break;
      }
      case "model.retrying":
        items.push({
          kind: "retry",
          seq: e.seq,
          text: `Retrying the model request (attempt ${e.payload.attempt} of ${e.payload.of}): ${e.payload.reason}`,
        });
        break;
      case "tool.called": {
        const item: ToolItem = {
          kind: "tool",
          seq: e.seq,
          callId: e.payload.callId,
          tool: e.payload.tool,
          summary: summarizeCall(e.payload.tool, e.payload.input),
          status: "running",
          output: null,
          diff: null,
          ...(e.at ? { at: e.at } : {}),
        };
        if (e.payload.tool === "apply_patch") item.diff = field(e.payload.input, "patch") ?? null;
        calls.set(item.callId, item);
        items.push(item);
        break;
      }
      case "tool.result": {
        let item = calls.get(e.payload.callId);
        if (!item) {
          item = {
            kind: "tool",
            seq: e.seq,
            callId: e.payload.callId,
            tool: e.payload.tool,
            summary: "",
            status: "running",
            output: null,
            diff: null,
          };
          items.push(item);
        }
        // A plan sent back is the review doing its job, not a failure.
        item.status = e.payload.ok ? "ok" : e.payload.tool === "exit_plan_mode" ? "returned" : "error";
        if (item.at && e.at) item.ms = Math.max(0, Date.parse(e.at) - Date.parse(item.at));
        item.output = e.payload.ok ? outputText(e.payload.output) : (e.payload.error ?? "failed");
        item.diff = field(e.payload.metadata, "diff") ?? item.diff;
        break;
      }
      case "mode.changed":
        items.push({
          kind: "mode",
          seq: e.seq,
          to: e.payload.to,
          text: describeModeChange(e.payload.from, e.payload.to, e.payload.cause),
        });
        break;
      case "mode.queued":
        items.push({
          kind: "mode",
          seq: e.seq,
          to: e.payload.target ?? "",
          text: e.payload.target
            ? `Mode ${modeLabel(e.payload.target)} at the next step`
            : "Queued mode change cancelled",
        });
        break;
      case "plan.created":
        items.push({ kind: "plan", seq: e.seq, text: `Plan file ${e.payload.path}` });
        break;
      case "review.asked":
        waitOn(e.payload.toolCallId);
        if (e.payload.kind === "plan-review")
          items.push({
            kind: "plan",
            seq: e.seq,
            text: `Plan version ${e.payload.planVersion ?? 1} submitted for review`,
            planVersion: e.payload.planVersion ?? 1,
          });
        else items.push({ kind: "plan", seq: e.seq, text: "The agent asked a question" });
        break;
      case "review.answered":
        items.push({
          kind: "decision",
          seq: e.seq,
          text: signedLine(
            DECISIONS[e.payload.decision] ?? e.payload.decision,
            e.payload,
            e.payload.feedback ? `: ${e.payload.feedback}` : "",
          ),
        });
        break;
      case "review.approved":
        items.push({
          kind: "decision",
          seq: e.seq,
          text: signedLine("Approved", e.payload, ` · ${e.payload.summary}`),
        });
        break;
      case "permission.asked":
        waitOn(e.payload.callId);
        if (e.payload.callId) asking.set(e.payload.requestId, e.payload.callId);
        items.push({
          kind: "permission",
          seq: e.seq,
          text: `Permission asked: ${e.payload.permission} ${e.payload.patterns.join(", ")}`,
        });
        break;
      case "permission.replied": {
        const call = calls.get(asking.get(e.payload.requestId) ?? "");
        if (call?.status === "waiting") call.status = "running";
        items.push({
          kind: "permission",
          seq: e.seq,
          text: signedLine(
            REPLIES[e.payload.reply] ?? e.payload.reply,
            e.payload,
            e.payload.message ? `: ${e.payload.message}` : "",
          ),
        });
        break;
      }
      case "command.run":
        items.push({
          kind: "notice",
          seq: e.seq,
          text: `/${e.payload.name}${e.payload.args ? ` ${e.payload.args}` : ""}${e.payload.outcome ? ` (${e.payload.outcome})` : ""}`,
        });
        break;
      case "notice":
        items.push({
          kind: "notice",
          seq: e.seq,
          text: e.payload.imported ? claimLine(e.payload.text) : withoutIds(e.payload.text),
        });
        break;
      case "compaction":
        items.push({ kind: "notice", seq: e.seq, text: "Earlier conversation summarised to save context" });
        break;
      case "turn.ended": {
        // A turn that simply finished says so only to give its tokens.
        const tokens = usageText(e.payload.usage);
        if ((e.payload.reason === "done" || e.payload.reason === "abandoned") && !tokens) break;
        items.push({
          kind: "turn",
          seq: e.seq,
          text: `Turn ended: ${TURN_ENDS[e.payload.reason] ?? e.payload.reason}`,
          ...(tokens ? { tokens } : {}),
        });
        break;
      }
      case "turn.interrupted":
        items.push({ kind: "turn", seq: e.seq, text: "Turn interrupted (server stopped); resume to continue" });
        break;
      case "verification.completed":
        items.push({
          kind: "verification",
          seq: e.seq,
          text: e.payload.summary,
          status: e.payload.status,
          verificationId: e.payload.verificationId,
        });
        break;
      case "todo.updated":
        items.push({
          kind: "todo",
          seq: e.seq,
          text: e.payload.todos.map((t) => `${t.status === "completed" ? "[x]" : "[ ]"} ${t.content}`).join("\n"),
        });
        break;
      default:
        break;
    }
  }
  return items;
}
