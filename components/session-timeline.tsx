import type { SessionEvent } from "@/lib/session/events";
import { PlanMarkdown } from "./plan-markdown";

function line(e: SessionEvent): { kind: string; text: string } | null {
  switch (e.type) {
    case "message.user":
      return { kind: "user", text: e.payload.text };
    case "message.assistant":
      return e.payload.text ? { kind: "assistant", text: e.payload.text } : null;
    case "tool.called":
      return { kind: "tool", text: `${e.payload.tool} ${JSON.stringify(e.payload.input).slice(0, 160)}` };
    case "tool.result":
      return { kind: e.payload.ok ? "result" : "error", text: e.payload.ok ? String(e.payload.output ?? "").slice(0, 400) : (e.payload.error ?? "failed") };
    case "mode.changed":
      return { kind: "mode", text: `Mode: ${e.payload.from} → ${e.payload.to} (${e.payload.cause})` };
    case "review.answered":
      return { kind: "decision", text: `Review ${e.payload.decision}${e.payload.feedback ? `: ${e.payload.feedback}` : ""}` };
    case "notice":
      return { kind: "notice", text: e.payload.text };
    default:
      return null;
  }
}

/** The session's events as people read them (the latest page of the log). */
export function SessionTimeline({ events }: { events: SessionEvent[] }) {
  return (
    <ol data-testid="timeline" className="flex flex-col gap-2">
      {events.map((e) => {
        const l = line(e);
        if (!l) return null;
        return (
          <li key={e.seq} data-testid="timeline-item" data-kind={l.kind} data-seq={e.seq} className="rounded border border-zinc-200 p-2 text-sm dark:border-zinc-800">
            {l.kind === "assistant" || l.kind === "user" ? <PlanMarkdown markdown={l.text} /> : <pre className="whitespace-pre-wrap break-words text-xs">{l.text}</pre>}
          </li>
        );
      })}
    </ol>
  );
}
