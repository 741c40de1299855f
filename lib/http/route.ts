import { NextResponse } from "next/server";
import { ZodError, type ZodType } from "zod";
import { identify } from "../auth/identify";
import { type Act, type Actor, mayAnywhere } from "../auth/rules/rights";
import { getDb } from "../db/client";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { guardInputOf, guardRequest } from "./guard";
import { zodMessage } from "./zod-words";

export function json(body: unknown, status = 200): NextResponse {
  return NextResponse.json(body, { status });
}

/** A live SSE body as the response: never cached or transformed, and not buffered by a proxy in front. */
export function eventStream(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}

/** Turns thrown errors into the registry's JSON shape: bad input is a 4xx naming the problem, never a 500. */
export function errorResponse(error: unknown): NextResponse {
  if (error instanceof AppError) {
    const res = json(error.toBody(), error.status);
    const wait = (error.details as { retryAfter?: unknown } | undefined)?.retryAfter;
    if (error.code === "rate_limited" && typeof wait === "number") res.headers.set("Retry-After", String(wait));
    return res;
  }
  if (error instanceof ZodError) return json(new AppError("bad_request", zodMessage(error)).toBody(), 400);
  console.error(error);
  return json(new AppError("internal").toBody(), 500);
}

/**
 * The proxy's check for an API request (the proxy sees pages only): the Host must be one this server answers to,
 * a closed path needs a credential presented, and a state change must come from this origin. Throws the refusal.
 */
function guardApi(req: Request): void {
  const env = getEnv();
  const url = new URL(req.url);
  const input = guardInputOf(
    // A query token is a page load's (the proxy moves it into a cookie); the API never takes one.
    { method: req.method, pathname: url.pathname, headers: req.headers, queryToken: null },
    { token: env.PLANGATE_TOKEN, host: env.HOST, allowedHosts: env.allowedHosts },
  );
  // Next builds the URL from the Host header; a request made in process (tests, scripts) may carry it only there.
  const verdict = guardRequest({ ...input, host: input.host ?? url.host });
  if (!verdict.ok) throw new AppError(verdict.code);
}

/**
 * Every route handler: who is asking is identified from what the server checked (a session cookie, a token),
 * never from the request body, and must be allowed `need` somewhere before the handler runs; the handler then
 * checks the workspace it touches (lib/auth/authorise). Without a credential: 401, and nothing runs.
 */
export function route<C>(
  /** "identified": any valid credential, for a route that only tells callers about themselves (GET /api/me). */
  need: Act | "identified",
  fn: (req: Request, ctx: C, actor: Actor) => Promise<Response>,
) {
  return async (req: Request, ctx: C): Promise<Response> => {
    try {
      guardApi(req);
      const actor = await identify(getDb(), req.headers);
      if (!actor) throw new AppError("unauthorized", "Sign in, or send a token (Authorization: Bearer …).");
      if (need !== "identified" && !mayAnywhere(actor, need))
        throw new AppError(
          "forbidden",
          actor.kind === "agent-token"
            ? "An agent token may only submit its own plans and asks and wait for their outcome."
            : "Your role does not allow this.",
        );
      return await fn(req, ctx, actor);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** The few routes anyone may call (GET /api/health): no credential is read, but Host and Origin are checked. */
export function openRoute<C>(fn: (req: Request, ctx: C) => Promise<Response>) {
  return async (req: Request, ctx: C): Promise<Response> => {
    try {
      guardApi(req);
      return await fn(req, ctx);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** Deeper than any request Plangate takes (an imported event's payload is a few levels): a 400, before anything recurses. */
export const MAX_JSON_DEPTH = 64;

/**
 * The path of the first string (key or value) that no database stores as text: a lone surrogate, which JSON
 * allows as "\ud800", or a NUL character, which PostgreSQL refuses in text (so SQLite and PostgreSQL accept the
 * same input). Null when every string can be stored. Walked with an explicit stack, never recursively: a body
 * nested 20,000 levels deep must be a 400 that names it, not a stack overflow.
 */
export function illFormedAt(value: unknown, at = "body"): string | null {
  const stack: { v: unknown; at: string; depth: number }[] = [{ v: value, at, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { v, depth } = top;
    if (typeof v === "string") {
      if (!storable(v)) return top.at;
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) return `${top.at} (nested deeper than ${MAX_JSON_DEPTH} levels)`;
    const array = Array.isArray(v);
    const entries: [string, unknown][] = array ? v.map((x, i) => [String(i), x]) : Object.entries(v);
    if (!array && entries.some(([k]) => !storable(k))) return `${top.at} (a key)`;
    // Pushed in reverse so the first offending string in document order is the one named.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, x] = entries[i]!;
      stack.push({ v: x, at: top.at === "body" && !array ? k : `${top.at}.${k}`, depth: depth + 1 });
    }
  }
  return null;
}

const storable = (s: string) => s.isWellFormed() && !s.includes("\u0000");

function assertWellFormed(value: unknown): void {
  const bad = illFormedAt(value);
  if (bad === null) return;
  if (bad.endsWith(`(nested deeper than ${MAX_JSON_DEPTH} levels)`))
    throw new AppError("bad_request", `${bad}: the JSON is nested too deeply`);
  throw new AppError("bad_request", `${bad}: not well-formed Unicode (a lone surrogate) or a NUL character`);
}

/** Bodies past `maxBytes` are a 413 (declared or read); the proxy passes up to 64 MB (next.config.mjs). */
/** The body as text, refused (413) past maxBytes, whatever Content-Length claimed. */
export async function readBodyText(req: Request, maxBytes = 1_000_000): Promise<string> {
  const tooLarge = () =>
    new AppError("payload_too_large", `The request body is larger than ${Math.round(maxBytes / 1_000) / 1_000} MB.`);
  if (Number(req.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  const text = await req.text();
  if (Buffer.byteLength(text, "utf8") > maxBytes) throw tooLarge();
  return text;
}

export async function parseBody<T>(req: Request, schema: ZodType<T>, maxBytes = 1_000_000): Promise<T> {
  const text = await readBodyText(req, maxBytes);
  let data: unknown = {};
  if (text.trim()) {
    try {
      data = JSON.parse(text);
    } catch {
      throw new AppError("invalid_json");
    }
  }
  assertWellFormed(data);
  return schema.parse(data);
}

export function parseQuery<T>(req: Request, schema: ZodType<T>): T {
  const query = Object.fromEntries(new URL(req.url).searchParams);
  assertWellFormed(query);
  return schema.parse(query);
}
