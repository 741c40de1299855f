import { authoriseSession } from "@/lib/auth/authorise";
import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { idFrom, type IdParams } from "@/lib/http/params";
import { exportFileName, exportJson, exportMarkdown } from "@/lib/session/export-session";
import { getSession } from "@/lib/session/get-session";
import { exportQuery } from "./schema";

export const dynamic = "force-dynamic";

export const GET = route("read", async (req, ctx: IdParams, actor) => {
  await authoriseSession(getDb(), actor, "read", await idFrom(ctx));
  const id = await idFrom(ctx);
  const { format, tz } = parseQuery(req, exportQuery);
  const { session } = await getSession(getDb(), id);
  const disposition = `attachment; filename="${exportFileName(session.title, format)}"`;
  if (format === "json") {
    const res = json(await exportJson(getDb(), id));
    res.headers.set("content-disposition", disposition);
    return res;
  }
  return new Response(await exportMarkdown(getDb(), id, tz), {
    headers: { "content-type": "text/markdown; charset=utf-8", "content-disposition": disposition },
  });
});
