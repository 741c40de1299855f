import type { PermissionMode } from "@/lib/permission/modes";
import { postJson, type PostResult } from "./post-json";

export type ModeReply = {
  outcome: "committed" | "queued" | "cancelled" | "noop";
  mode: PermissionMode;
  pending: PermissionMode | null;
};

export { MODE_LABEL } from "@/lib/vocabulary";

const OUTCOME: Record<string, string> = {
  committed: "now",
  queued: "at the next step (a turn is running)",
  cancelled: "cancelled the pending change",
  noop: "already so",
  pass: "passed",
  fail: "failed",
  awaiting_permission: "waiting for your permission to run the workspace's verify command",
};

/** What a mode request did, in words for the status line. */
export function describeOutcome(what: string, outcome: string): string {
  return `${what}: ${OUTCOME[outcome] ?? outcome}`;
}

export function requestMode(sessionId: string, mode: PermissionMode): Promise<PostResult<ModeReply>> {
  return postJson<ModeReply>(`/api/sessions/${sessionId}/mode`, { mode });
}

export type SentReply = {
  turn: { id: string; queued: boolean } | null;
  command?: { name: string; args: string; outcome: string };
};

export function sendText(sessionId: string, text: string): Promise<PostResult<SentReply>> {
  return postJson<SentReply>(`/api/sessions/${sessionId}/messages`, { text });
}
