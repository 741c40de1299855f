import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";
import { getSession } from "@/lib/session/get-session";
import { importBody, importSession } from "@/lib/session/import-session";

export const dynamic = "force-dynamic";

/** Reads a JSON export back as a new session. */
export const POST = route(async (req) => {
  // An export of a long session is large; 50 MB of JSON is about 100,000 events.
  const body = await parseBody(req, importBody, 50_000_000);
  const { id } = await importSession(getDb(), body);
  return json(await getSession(getDb(), id), 201);
});
