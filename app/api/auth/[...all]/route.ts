import { getDb } from "@/lib/db/client";
import { authFor } from "@/lib/db/people/auth";
import { AppError } from "@/lib/errors";
import { openRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// better-auth's routes that Plangate offers; the rest (sign-up, account changes by email) stay closed, since
// people are added by an owner and their credentials set through one-time links.
const OFFERED = new Set(["/api/auth/sign-in/email", "/api/auth/sign-out", "/api/auth/get-session"]);

const handle = openRoute(async (req: Request) => {
  if (!OFFERED.has(new URL(req.url).pathname)) throw new AppError("not_found", "Plangate does not offer that route.");
  return authFor(getDb()).handler(req);
});

export const GET = handle;
export const POST = handle;
