import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { exportJson, exportMarkdown } from "@/lib/session/export-session";
import { exportQuery } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route(async (req, ctx: IdParams) => {
  const id = await idFrom(ctx);
  const { format } = parseQuery(req, exportQuery);
  if (format === "json") {
    const res = json(await exportJson(getDb(), id));
    res.headers.set("content-disposition", `attachment; filename="${id}.json"`);
    return res;
  }
  return new Response(await exportMarkdown(getDb(), id), {
    headers: { "content-type": "text/markdown; charset=utf-8", "content-disposition": `attachment; filename="${id}.md"` },
  });
});
