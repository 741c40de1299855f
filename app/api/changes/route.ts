import { may } from "@/lib/core/people";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { streamChanges } from "@/lib/session/stream-changes";

export const dynamic = "force-dynamic";

/** SSE for list pages: which sessions this person may read changed (the desk, home and a team re-render on it). */
export const GET = route("read", async (req, _ctx, actor) => {
  const body = streamChanges(getDb(), (workspace) => may(actor, "read", workspace), req.signal);
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
