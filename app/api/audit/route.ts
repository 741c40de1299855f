import { auditCsv } from "@/lib/auth/views/audit-csv";
import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { readAudit } from "@/lib/auth/read-audit";
import { auditQuery } from "./schema";

export const dynamic = "force-dynamic";

/**
 * GET /api/audit?person=&workspace=&kind=&limit=&after=&format=json|csv: the signed acts the caller may read, newest
 * first, a page at a time (`next` is the following page's `after`).
 */
export const GET = route("manage", async (req, _ctx, actor) => {
  const query = parseQuery(req, auditQuery);
  const { entries, next } = await readAudit(getDb(), actor, query);
  if (query.format === "json") return json({ entries, next });
  const headers = new Headers({
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": 'attachment; filename="plangate-audit.csv"',
  });
  // A CSV has no place for the cursor: the next page's address goes in a Link header (RFC 8288).
  if (next) {
    const url = new URL(req.url);
    url.searchParams.set("after", next);
    headers.set("link", `<${url.pathname}${url.search}>; rel="next"`);
  }
  return new Response(auditCsv(entries), { headers });
});
