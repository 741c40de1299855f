import { NextResponse } from "next/server";
import { ZodError, type ZodType } from "zod";
import { AppError } from "../errors";

export function json(body: unknown, status = 200): NextResponse {
  return NextResponse.json(body, { status });
}

function zodMessage(error: ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join(".") : "body"}: ${i.message}`).join("; ");
}

/** Turns thrown errors into the registry's JSON shape: bad input is a 4xx naming the problem, never a 500. */
export function errorResponse(error: unknown): NextResponse {
  if (error instanceof AppError) return json(error.toBody(), error.status);
  if (error instanceof ZodError) return json(new AppError("bad_request", zodMessage(error)).toBody(), 400);
  console.error(error);
  return json(new AppError("internal").toBody(), 500);
}

export function route<C>(fn: (req: Request, ctx: C) => Promise<Response>) {
  return async (req: Request, ctx: C): Promise<Response> => {
    try {
      return await fn(req, ctx);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/**
 * The path of the first string (key or value) that no database stores as text: a lone surrogate, which JSON
 * allows as "\ud800", or a NUL character, which PostgreSQL refuses in text (so SQLite and PostgreSQL accept the
 * same input). Null when every string can be stored.
 */
export function illFormedAt(value: unknown, at = "body"): string | null {
  if (typeof value === "string") return storable(value) ? null : at;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = illFormedAt(value[i], `${at}.${i}`);
      if (bad !== null) return bad;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (!storable(k)) return `${at} (a key)`;
      const bad = illFormedAt(v, at === "body" ? k : `${at}.${k}`);
      if (bad !== null) return bad;
    }
  }
  return null;
}

const storable = (s: string) => s.isWellFormed() && !s.includes("\u0000");

function assertWellFormed(value: unknown): void {
  const bad = illFormedAt(value);
  if (bad !== null) throw new AppError("bad_request", `${bad}: not well-formed Unicode (a lone surrogate) or a NUL character`);
}

/** Bodies past `maxBytes` are a 413 (declared or read); the proxy passes up to 64 MB (next.config.ts). */
export async function parseBody<T>(req: Request, schema: ZodType<T>, maxBytes = 1_000_000): Promise<T> {
  const tooLarge = () => new AppError("payload_too_large", `The request body is larger than ${Math.round(maxBytes / 1_000_000)} MB.`);
  if (Number(req.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  const text = await req.text();
  if (Buffer.byteLength(text, "utf8") > maxBytes) throw tooLarge();
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
