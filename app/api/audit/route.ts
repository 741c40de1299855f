import { auditCsv } from "@/lib/core/audit-csv";
import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { auditQuery, readAudit } from "@/lib/auth/read-audit";

export const dynamic = "force-dynamic";

/** GET /api/audit?person=&workspace=&kind=&format=json|csv: every signed act the caller may read. */
export const GET = route("manage", async (req, _ctx, actor) => {
  const query = parseQuery(req, auditQuery);
  const entries = await readAudit(getDb(), actor, query);
  if (query.format === "json") return json({ entries });
  return new Response(auditCsv(entries), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="plangate-audit.csv"',
    },
  });
});
