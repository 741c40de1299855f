import { NextResponse, type NextRequest } from "next/server";
import { AppError } from "@/lib/errors";
import { guardRequest } from "@/lib/http/guard";

const COOKIE = "plangate_token";

export function proxy(request: NextRequest) {
  const token = process.env.PLANGATE_TOKEN || undefined;
  const queryToken = request.nextUrl.searchParams.get("token");
  const verdict = guardRequest({
    method: request.method,
    pathname: request.nextUrl.pathname,
    host: request.headers.get("host"),
    origin: request.headers.get("origin"),
    secFetchSite: request.headers.get("sec-fetch-site"),
    authorization: request.headers.get("authorization"),
    cookieToken: request.cookies.get(COOKIE)?.value ?? null,
    queryToken,
    token,
  });
  if (!verdict.ok) {
    const error = new AppError(verdict.code);
    return NextResponse.json(error.toBody(), { status: error.status });
  }
  const response = NextResponse.next();
  if (verdict.setCookie && queryToken) {
    response.cookies.set(COOKIE, queryToken, { httpOnly: true, sameSite: "strict", path: "/" });
  }
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
