// For agents whose approval cannot carry text (Gemini CLI's BeforeTool allow, Droid's PreToolUse allow) but whose
// after-the-tool hook can: the hook that approved remembers which review it was, beside the credentials, and the
// after-hook reads that review's notes (what Plangate's own agent would read) once and forgets it.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Outcome } from "./await-review";
import { callServer, configDir } from "./client";

const stateFile = (agent: string, sessionId: string) =>
  path.join(configDir(), "state", `${agent}-${createHash("sha256").update(sessionId).digest("hex").slice(0, 32)}.json`);

export function rememberApproved(agent: string, sessionId: string, reviewId: string): void {
  const file = stateFile(agent, sessionId);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, JSON.stringify({ reviewId }), { mode: 0o600 });
}

/** The approved review's text for the model (its notes, the plan as approved), or null when there is none. */
export async function approvedNotes(url: string, agent: string, sessionId: string): Promise<Outcome | null> {
  let reviewId: string;
  try {
    reviewId = (JSON.parse(fs.readFileSync(stateFile(agent, sessionId), "utf8")) as { reviewId: string }).reviewId;
    fs.rmSync(stateFile(agent, sessionId), { force: true });
  } catch {
    return null;
  }
  const reply = await callServer(url, "GET", `/api/external/plan-reviews/${encodeURIComponent(reviewId)}?wait=0`).catch(
    () => null,
  );
  const outcome = reply?.status === 200 ? (reply.body as Outcome) : null;
  return outcome && outcome.status === "approved" && outcome.message ? outcome : null;
}
