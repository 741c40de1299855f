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

export async function parseBody<T>(req: Request, schema: ZodType<T>, maxChars = 1_000_000): Promise<T> {
  const text = await req.text();
  if (text.length > maxChars) throw new AppError("payload_too_large");
  let data: unknown = {};
  if (text.trim()) {
    try {
      data = JSON.parse(text);
    } catch {
      throw new AppError("invalid_json");
    }
  }
  return schema.parse(data);
}

export function parseQuery<T>(req: Request, schema: ZodType<T>): T {
  return schema.parse(Object.fromEntries(new URL(req.url).searchParams));
}
