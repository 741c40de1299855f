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

type Remembered = { reviewId: string; planHash?: string; folder?: string };

/**
 * `planHash`: the approved plan's text as the agent sent it, for an agent that sends it again after its own prompt;
 * `folder`: the folder the plan was for, for an agent whose session may go on in another (Amp's thread).
 */
export function rememberApproved(
  agent: string,
  sessionId: string,
  reviewId: string,
  o: { planHash?: string; folder?: string } = {},
): void {
  const file = stateFile(agent, sessionId);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, JSON.stringify({ reviewId, ...o } satisfies Remembered), { mode: 0o600 });
}

function remembered(agent: string, sessionId: string): Remembered | null {
  try {
    return JSON.parse(fs.readFileSync(stateFile(agent, sessionId), "utf8")) as Remembered;
  } catch {
    return null;
  }
}

async function outcomeOf(url: string, reviewId: string): Promise<Outcome | null> {
  const reply = await callServer(url, "GET", `/api/external/plan-reviews/${encodeURIComponent(reviewId)}?wait=0`).catch(
    () => null,
  );
  const outcome = reply?.status === 200 ? (reply.body as Outcome) : null;
  return outcome?.status === "approved" ? outcome : null;
}

/**
 * Whether this session's remembered review is approved on the server (and of this very plan, for an agent that
 * names it again); kept for the notes.
 */
export async function rememberedApproval(url: string, agent: string, sessionId: string, planHash?: string) {
  const r = remembered(agent, sessionId);
  return r !== null && r.planHash === planHash && (await outcomeOf(url, r.reviewId)) !== null;
}

/** Forgets the session's approval: a new plan is planned again, whatever becomes of it. */
export function forgetApproved(agent: string, sessionId: string): void {
  fs.rmSync(stateFile(agent, sessionId), { force: true });
}

/** Whether this session's remembered review is approved on the server, for a folder at or under `folder`. */
export async function rememberedApprovalIn(url: string, agent: string, sessionId: string, folder: string) {
  const r = remembered(agent, sessionId);
  if (r?.folder === undefined) return false;
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return p;
    }
  };
  const rel = path.relative(real(r.folder), real(folder));
  if (rel.startsWith("..") || path.isAbsolute(rel)) return false;
  return (await outcomeOf(url, r.reviewId)) !== null;
}

/** The approved review's text for the model (its notes, the plan as approved), once; null when there is none. */
export async function approvedNotes(url: string, agent: string, sessionId: string): Promise<Outcome | null> {
  const r = remembered(agent, sessionId);
  if (!r) return null;
  fs.rmSync(stateFile(agent, sessionId), { force: true });
  const outcome = await outcomeOf(url, r.reviewId);
  return outcome?.message ? outcome : null;
}
