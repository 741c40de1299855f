// Appends N events to each session (ids comma-separated, in that order) from a separate process, to prove appends
// from two servers interleave safely.
import { createDb } from "../../lib/db/client";
import { appendEvents } from "../../lib/session/append-events";

const [url, sessionId, count, tag] = process.argv.slice(2);
if (!url || !sessionId || !count || !tag) throw new Error("usage: append-worker <url> <sessionId> <count> <tag>");
const db = createDb(url);
for (const id of sessionId.split(",")) {
  for (let i = 0; i < Number(count); i++) {
    await appendEvents(db, id, [{ type: "message.user", payload: { text: `${tag}-${i}` } }]);
  }
}
await db.$disconnect();
