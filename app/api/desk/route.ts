import { getDb } from "@/lib/db/client";
import { listDeskItems } from "@/lib/desk/list-desk-items";
import { json, parseQuery, route } from "@/lib/http/route";
import { deskApiQuery } from "./schema";

export const dynamic = "force-dynamic";

/**
 * The desk as data: what waits in the caller's workspaces, oldest first (the page, a CLI, an MCP client), a page at
 * a time (`next` is the following page's `after`), with the counts of all of it.
 */
export const GET = route("read", async (req, _ctx, actor) => {
  const { agent, workspace, mine, after, limit } = parseQuery(req, deskApiQuery);
  const filter = { agent, workspace, mine: mine === "1" || undefined };
  const { page, next, waiting, forYou } = await listDeskItems(getDb(), actor, filter, { after, limit });
  return json({ items: page, next, waiting, forYou });
});
