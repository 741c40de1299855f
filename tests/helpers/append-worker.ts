// Appends N events to one session from a separate process, to prove appends from two servers interleave safely.
import { createDb } from "../../lib/db/client";
import { appendEvents } from "../../lib/session/append-events";

const [url, sessionId, count, tag] = process.argv.slice(2);
if (!url || !sessionId || !count || !tag) throw new Error("usage: append-worker <url> <sessionId> <count> <tag>");
const db = createDb(url);
for (let i = 0; i < Number(count); i++) {
  await appendEvents(db, sessionId, [{ type: "message.user", payload: { text: `${tag}-${i}` } }]);
}
await db.$disconnect();
