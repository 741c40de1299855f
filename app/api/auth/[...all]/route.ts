import { getDb } from "@/lib/db/client";
import { authFor } from "@/lib/auth/better-auth";
import { ssoRoutes, ssoStartRequest } from "@/lib/auth/sso-plugins";
import { authForSsoStart } from "@/lib/auth/sso-start";
import { limitedAuthRequest } from "@/lib/auth/limit-sign-in";
import { SSO_START_PATH } from "@/lib/auth/rules/sso";
import { OPERATOR_COOKIE } from "@/lib/auth/rules/cookie-names";
import { AppError } from "@/lib/errors";
import { overTls } from "@/lib/http/guard";
import { openRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// better-auth's routes that Plangate offers; the rest (sign-up, account changes by email) stay closed, since
// people are added by an owner and their credentials set through one-time links. Passkeys: signing in with one
// is open to anyone (the signature is the credential); adding one needs a signed-in person, which the plugin
// checks (a fresh session) before it writes. Listing, renaming and deleting passkeys are not offered at all.
// Single sign-on adds its start and its callback while it is configured.
const OFFERED = new Set([
  "/api/auth/sign-in/email",
  "/api/auth/sign-out",
  "/api/auth/get-session",
  "/api/auth/passkey/generate-authenticate-options",
  "/api/auth/passkey/verify-authentication",
  "/api/auth/passkey/generate-register-options",
  "/api/auth/passkey/verify-registration",
]);

const handle = openRoute(async (req: Request) => {
  const { pathname } = new URL(req.url);
  if (!OFFERED.has(pathname) && !ssoRoutes().includes(pathname))
    throw new AppError("not_found", "Plangate does not offer that route.");
  // The start takes only what the sign-in button sends (no idToken, requestSignUp or extra parameters).
  if (pathname === SSO_START_PATH)
    return limitedAuthRequest(getDb(), req, async () =>
      (await authForSsoStart(getDb())).handler(await ssoStartRequest(req)),
    );
  const res = await limitedAuthRequest(getDb(), req, (r) => authFor(getDb()).handler(r));
  return pathname === "/api/auth/sign-out" ? withoutOperatorCookie(req, res) : res;
});

/** Signing out ends this browser's acting, whatever it held: the operator cookie a ?token= link left goes too. */
function withoutOperatorCookie(req: Request, res: Response): Response {
  const out = new Response(res.body, res);
  const secure = overTls(new URL(req.url).protocol, req.headers.get("x-forwarded-proto")) ? "; Secure" : "";
  out.headers.append("set-cookie", `${OPERATOR_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure}`);
  return out;
}

export const GET = handle;
export const POST = handle;
