import { NextResponse, type NextRequest } from "next/server";
import { getEnv, type Env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { guardRequest, overTls } from "@/lib/http/guard";
import { securityHeaders } from "@/lib/http/security-headers";
import { OPERATOR_COOKIE, SECURE_SESSION_COOKIE, SESSION_COOKIE } from "@/lib/core/cookie-names";

const COOKIE = OPERATOR_COOKIE;
// The cookie a ?token= link sets lasts a working month; the token itself does not expire.
const COOKIE_MAX_AGE = 30 * 24 * 60 * 60;

function allowedHosts(env: Env): string[] {
  const host = env.HOST.trim();
  return host ? [...env.allowedHosts, host] : env.allowedHosts;
}

export function proxy(request: NextRequest) {
  // Validated at boot (npm start); the same parse here, so the edge and the app read one environment.
  const env = getEnv();
  const token = env.PLANGATE_TOKEN;
  const queryToken = request.nextUrl.searchParams.get("token");
  const verdict = guardRequest({
    method: request.method,
    pathname: request.nextUrl.pathname,
    host: request.headers.get("host"),
    origin: request.headers.get("origin"),
    secFetchSite: request.headers.get("sec-fetch-site"),
    authorization: request.headers.get("authorization"),
    cookieToken: request.cookies.get(COOKIE)?.value ?? null,
    sessionCookie: request.cookies.has(SESSION_COOKIE) || request.cookies.has(SECURE_SESSION_COOKIE),
    queryToken,
    token,
    allowedHosts: allowedHosts(env),
  });
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
    redirect.cookies.set(COOKIE, queryToken, {
      httpOnly: true,
      sameSite: "strict",
      path: "/",
      maxAge: COOKIE_MAX_AGE,
      secure,
    });
    return redirect;
  }
  if (request.nextUrl.pathname.startsWith("/api/")) {
    // An API answer renders no scripts: no nonce to hand on, so the request goes on unchanged (cheaper).
    const response = NextResponse.next();
    for (const [k, v] of Object.entries(headers.response)) response.headers.set(k, v);
    return response;
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
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
