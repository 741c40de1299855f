// A session of Plangate's own agent in plan mode, driven until it waits on its plan review: the in-process benches'
// starting point for an approval.
import { driveSession } from "../../lib/agent/drive-session";
import { startSession } from "../../lib/agent/start-session";
import type { Db } from "../../lib/db/client";
import { sql } from "../../lib/db/sql";
import { appendEvents } from "../../lib/session/append-events";

/** `script`: the scripted model's steps, the first of which calls exit_plan_mode. Returns the session and review ids. */
export async function waitingReview(
  db: Db,
  workspace: string,
  script: unknown[],
): Promise<{ sessionId: string; reviewId: string }> {
  const { session } = await startSession(db, { workspace, agent: "build", mode: "plan", model: "scripted", script });
  await appendEvents(db, session.id, [
    { type: "message.user", payload: { text: "plan it" } },
    { type: "turn.started", payload: { turnId: `trn_${session.id}` } },
  ]);
  await driveSession(db, session.id);
  const [review] = await (await sql(db)).query<{ id: string }>(
    'SELECT "id" FROM "Review" WHERE "sessionId" = ? AND "status" = ?',
    [session.id, "pending"],
  );
  if (!review) throw new Error("no plan review opened");
  return { sessionId: session.id, reviewId: review.id };
}
