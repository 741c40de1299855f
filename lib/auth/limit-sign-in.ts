import "server-only";
import type { Db } from "../db/client";
import { addressOf, limited, refusedByAuth, signInLimits } from "./limit-attempts";

const PASSWORD_SIGN_IN = "/api/auth/sign-in/email";
const MAX_EMAIL = 320;

/** What a sign-in's body says, in whichever encoding better-auth reads it (JSON, or a form, urlencoded or multipart). */
async function bodyEmail(req: Request): Promise<unknown> {
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data"))
    return (
      await req
        .clone()
        .formData()
        .catch(() => null)
    )?.get("email");
  const body: unknown = await req
    .clone()
    .json()
    .catch(() => null);
  return body && typeof body === "object" ? (body as { email?: unknown }).email : undefined;
}

/** The email a sign-in's body names, as accounts are keyed (trimmed, lowercase); null when it names none. */
async function emailOf(req: Request): Promise<string | null> {
  const email = await bodyEmail(req);
  return typeof email === "string" && email.length <= MAX_EMAIL ? email.trim().toLowerCase() || null : null;
}

/**
 * One of better-auth's routes behind Plangate's limits: a password sign-in counts against its email and its address
 * unless it succeeds (so ten wrong passwords for one account stop the eleventh try, the right one too, until the
 * window closes); every route also passes better-auth's own limiter, per address and path, in the same table. Either
 * refusal is a 429 with Retry-After and a message that says when to try again.
 */
export async function limitedAuthRequest(
  db: Db,
  req: Request,
  handle: (req: Request) => Promise<Response>,
): Promise<Response> {
  const { pathname } = new URL(req.url);
  const res =
    pathname === PASSWORD_SIGN_IN
      ? await limited(
          db,
          "sign-in attempts",
          signInLimits(await emailOf(req), addressOf(req.headers)),
          () => handle(req),
          (r) => r.ok,
        )
      : await handle(req);
  if (res.status === 429) throw refusedByAuth(res);
  return res;
}
