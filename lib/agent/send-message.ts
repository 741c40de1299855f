import type { Db } from "../db/client";
import { newId } from "../id";
import { appendEvents } from "../session/append-events";
import { setSessionMode } from "../plan/set-session-mode";
import type { ModeOutcome } from "../plan/mode-choice";
import { kick } from "./kick";
import { isExternalModel } from "../session/external-agents";
import { AppError } from "../errors";
import type { Actor } from "../auth/rules/rights";
import { compactSession } from "../session/compact-session";
import { getSession } from "../session/get-session";
import { verifySession } from "../verify/verify-session";
import { gradeWithVerifierModel } from "./verifier-model";

export type SentMessage = {
  turn: { id: string; queued: boolean } | null;
  command?: {
    name: string;
    args: string;
    outcome: ModeOutcome | "pass" | "fail" | "unverified" | "awaiting_permission";
  };
};

/** `/plan`, `/plan off`, `/plan <message>`: null when the text is an ordinary message. */
export function parsePlanCommand(text: string): { args: string } | null {
  const m = /^\/plan(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { args: (m[1] ?? "").trim() } : null;
}

/**
 * Starts a turn with the message or, while a turn is open, records it for the next step boundary (the
 * conversation is rebuilt from the log at every step, so a recorded message is a delivered one). `/plan off` is the
 * sender's mode choice: judged by their right (lib/auth/rules/mode-rights).
 */
export async function sendMessage(db: Db, sessionId: string, text: string, sender: Actor): Promise<SentMessage> {
  const { session } = await getSession(db, sessionId);
  if (isExternalModel(session.model))
    throw new AppError(
      "conflict",
      `This session is run by ${session.agent} in its own terminal: send it messages there.`,
    );
  if (text.trim() === "/compact") {
    const { state } = await getSession(db, sessionId);
    if (state.openTurnId) throw new AppError("turn_in_progress", "A turn is running: compact when it has finished.");
    const { compacted } = await compactSession(db, sessionId);
    return { turn: null, command: { name: "compact", args: "", outcome: compacted ? "committed" : "noop" } };
  }
  if (text.trim() === "/verify") {
    const { state } = await getSession(db, sessionId);
    if (state.openTurnId) throw new AppError("turn_in_progress", "A turn is running: verify when it has finished.");
    const result = await verifySession(db, sessionId, gradeWithVerifierModel);
    const outcome = "awaitingPermission" in result ? "awaiting_permission" : result.report.status;
    return { turn: null, command: { name: "verify", args: "", outcome } };
  }
  const command = parsePlanCommand(text);
  if (command) {
    const off = command.args === "off";
    const run = { type: "command.run" as const, payload: { name: "plan", args: command.args } };
    const { outcome } = await setSessionMode(
      db,
      sessionId,
      { plan: !off },
      "command",
      sender,
      [run],
      off ? undefined : command.args || undefined,
    );
    const result: SentMessage = { turn: null, command: { name: "plan", args: command.args, outcome } };
    // `/plan <message>` then sends the message as an ordinary one, under plan guidance; `/plan off` sends nothing.
    if (off || !command.args) return result;
    return { ...(await sendText(db, sessionId, command.args)), command: result.command };
  }
  return sendText(db, sessionId, text);
}

async function sendText(db: Db, sessionId: string, text: string): Promise<SentMessage> {
  const fresh = newId("trn");
  const { state } = await appendEvents(db, sessionId, (s) =>
    s.openTurnId
      ? [{ type: "message.user", payload: { text } }]
      : [
          { type: "message.user", payload: { text } },
          { type: "turn.started", payload: { turnId: fresh, resumed: s.interrupted } },
        ],
  );
  const turnId = state.openTurnId ?? fresh;
  kick(db, sessionId);
  return { turn: { id: turnId, queued: turnId !== fresh } };
}
