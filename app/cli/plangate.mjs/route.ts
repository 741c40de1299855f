import { readCliFile } from "@/lib/external/read-cli-file";
import { openRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// Open, as /api/health is: another machine fetches the CLI before it has any credential (README, "On the desk").
export const GET = openRoute(async (req: Request) => {
  const { body, etag } = readCliFile();
  const headers = { etag, "cache-control": "no-cache", "x-content-type-options": "nosniff" };
  if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(body), {
    headers: { ...headers, "content-type": "text/javascript; charset=utf-8" },
  });
});
