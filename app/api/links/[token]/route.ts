import { completeLink, completeLinkBody } from "@/lib/auth/complete-link";
import { getDb } from "@/lib/db/client";
import { openRoute, parseBody } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** A one-time link's form (setup, invite, reset): open, since the link's secret is the credential. */
export const POST = openRoute(async (req: Request, ctx: { params: Promise<{ token: string }> }) => {
  const { token } = await ctx.params;
  return completeLink(getDb(), token, await parseBody(req, completeLinkBody), req.headers);
});
