import type { SessionEvent } from "./log/events";
import { foldEvents } from "./log/fold";

const FILE_TOOLS = new Set(["edit", "write", "apply_patch"]);
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * A deterministic summary of a stretch of the log, used by compaction: what was asked, what was answered,
 * which files the tools changed, which commands ran, decisions on plans and permissions, and the mode.
 */
export function summarizeLog(events: readonly SessionEvent[]): string {
  const asks: string[] = [];
  const answers: string[] = [];
  const files = new Set<string>();
  const commands: string[] = [];
  const decisions: string[] = [];
  for (const e of events) {
    if (e.type === "message.user") asks.push(clip(e.payload.text.trim(), 300));
    else if (e.type === "message.assistant" && e.payload.text.trim()) answers.push(clip(e.payload.text.trim(), 300));
    else if (e.type === "tool.called" && FILE_TOOLS.has(e.payload.tool)) {
      const input = e.payload.input as { path?: unknown; patch?: unknown } | null;
      if (typeof input?.path === "string") files.add(input.path);
      if (typeof input?.patch === "string")
        for (const m of input.patch.matchAll(/^\+\+\+ (?:b\/)?(\S+)/gm))
          if (m[1] !== "/dev/null") files.add(m[1] as string);
    } else if (e.type === "tool.called" && e.payload.tool === "bash") {
      const input = e.payload.input as { command?: unknown } | null;
      if (typeof input?.command === "string") commands.push(clip(input.command, 120));
    } else if (e.type === "review.answered")
      decisions.push(
        `review ${e.payload.reviewId}: ${e.payload.decision}${e.payload.feedback ? ` (${clip(e.payload.feedback, 200)})` : ""}`,
      );
  }
  const state = foldEvents(events);
  const section = (title: string, lines: string[]) =>
    lines.length ? [`## ${title}`, ...lines.map((l) => `- ${l}`), ""] : [];
  return [
    ...section("The user asked", asks.slice(-10)),
    ...section("The agent answered", answers.slice(-5)),
    ...section("Files changed by tools", [...files].slice(0, 50)),
    ...section("Commands run", commands.slice(-15)),
    ...section("Decisions", decisions.slice(-10)),
    `Permission mode at this point: ${state.mode}${state.mode === "plan" ? " (plan mode is on)" : ""}.`,
  ].join("\n");
}
