import { completeLink, completeLinkBody } from "@/lib/auth/complete-link";
import { getDb } from "@/lib/db/client";
import { addressOf, limited, linkLimits } from "@/lib/auth/limit-attempts";
import { openRoute, parseBody } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** A one-time link's form (setup, invite, reset): open, since the link's secret is the credential. */
export const POST = openRoute(async (req: Request, ctx: { params: Promise<{ token: string }> }) => {
  const { token } = await ctx.params;
  const body = await parseBody(req, completeLinkBody);
  // The secret is guessed by trying: failed uses are limited per address (a used link gives its count back).
  return limited(
    getDb(),
    "tries of one-time links",
    linkLimits(addressOf(req.headers)),
    () => completeLink(getDb(), token, body, req.headers),
    (res) => res.ok,
  );
});
