import { readableFilter } from "@/lib/auth/rules/rights";
import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { listRequests } from "@/lib/session/permission-store";
import { listPermissionsQuery } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route("read", async (req, _ctx, actor) => {
  const query = parseQuery(req, listPermissionsQuery);
  return json({ permissions: await listRequests(getDb(), { ...query, ...readableFilter(actor) }) });
});
