import { createTokenBody, makeToken, tokensFor } from "@/lib/auth/manage-tokens";
import { getDb } from "@/lib/db/client";
import { json, parseBody, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route("read", async (_req, _ctx, actor) => json({ tokens: await tokensFor(getDb(), actor) }));

export const POST = route("read", async (req, _ctx, actor) => {
  const { token, secret } = await makeToken(getDb(), actor, await parseBody(req, createTokenBody));
  return json({ token, secret }, 201);
});
