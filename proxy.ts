import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { guardInputOf, guardRequest, overTls } from "@/lib/http/guard";
import { securityHeaders } from "@/lib/http/security-headers";
import { OPERATOR_COOKIE } from "@/lib/auth/rules/cookie-names";

// The cookie a ?token= link sets lasts a working month; the token itself does not expire.
const COOKIE_MAX_AGE = 30 * 24 * 60 * 60;

/**
 * Pages only: the API's routes run the same guard themselves (lib/http/route.ts), since passing a request on
 * through the proxy costs more than the rest of a small API request (bench/README.md, "Knowing the caller").
 */
export function proxy(request: NextRequest) {
  // Validated at boot (npm start); the same parse here, so the edge and the app read one environment.
  const env = getEnv();
  const queryToken = request.nextUrl.searchParams.get("token");
  const verdict = guardRequest(
    guardInputOf(
      { method: request.method, pathname: request.nextUrl.pathname, headers: request.headers, queryToken },
      { token: env.PLANGATE_TOKEN, host: env.HOST, allowedHosts: env.allowedHosts },
    ),
  );
  const headers = securityHeaders(process.env.NODE_ENV !== "production");
  if (!verdict.ok && verdict.code === "sign_in_required") {
    const signIn = new URL("/sign-in", request.nextUrl);
    signIn.searchParams.set("next", `${request.nextUrl.pathname}${request.nextUrl.search}`);
    const redirect = NextResponse.redirect(signIn, 303);
    for (const [k, v] of Object.entries(headers.response)) redirect.headers.set(k, v);
    return redirect;
  }
  if (!verdict.ok) {
    const error = new AppError(verdict.code);
    const refused = NextResponse.json(error.toBody(), { status: error.status });
    for (const [k, v] of Object.entries(headers.response)) refused.headers.set(k, v);
    return refused;
  }
  if (verdict.fromQuery && queryToken) {
    // Accepted once: the token moves into an HttpOnly cookie and the address bar (and history) loses it.
    const clean = request.nextUrl.clone();
    clean.searchParams.delete("token");
    const redirect = NextResponse.redirect(clean, 303);
    const secure = overTls(request.nextUrl.protocol, request.headers.get("x-forwarded-proto"));
    redirect.cookies.set(OPERATOR_COOKIE, queryToken, {
      httpOnly: true,
      sameSite: "strict",
      path: "/",
      maxAge: COOKIE_MAX_AGE,
      secure,
    });
    return redirect;
  }
  const forwarded = new Headers(request.headers);
  // Next reads the nonce from the request's CSP and puts it on the scripts it renders.
  forwarded.set("Content-Security-Policy", headers.csp);
  forwarded.set("x-nonce", headers.nonce);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [k, v] of Object.entries(headers.response)) response.headers.set(k, v);
  return response;
}

export const config = {
  // `api/` (with its slash): every API route is made by route() or openRoute(), which guard it.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/).*)"],
};
