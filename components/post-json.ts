import { ERRORS, isErrorBody } from "@/lib/errors";

export type PostResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string };

/** POST with JSON both ways; a failure carries the server's message (from the shared error registry). */
export function postJson<T = unknown>(url: string, body?: unknown): Promise<PostResult<T>> {
  return sendJson<T>("POST", url, body);
}

export async function sendJson<T = unknown>(
  method: "POST" | "PUT" | "DELETE",
  url: string,
  body?: unknown,
): Promise<PostResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, message: "The server could not be reached. Try again." };
  }
  const data: unknown = await res.json().catch(() => null);
  if (res.ok) return { ok: true, data: data as T };
  const message = isErrorBody(data)
    ? data.error.message
    : res.status >= 500
      ? ERRORS.internal.message
      : `The request failed (${res.status}).`;
  return { ok: false, status: res.status, message };
}
