// What a fault of the fake model servers looks like to plain fetch (tests/agents/fake-*-faults.test.ts): the body
// read up to a failure, the SSE data lines, an error's cause chain, and a reset as undici's fetch (Node 20) reports it.
import { expect } from "vitest";

export const input = {
  command: "echo hello world",
  description: "a long enough description to span several deltas",
  n: 42,
};
export const inputJson = JSON.stringify(input);

/** Reads the body chunk by chunk, keeping what arrived before a failure. */
export async function readAll(res: Response): Promise<{ text: string; error?: unknown }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

export const sseData = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => l.slice(6));

/** The error and its cause chain as "name: message [code]" lines. */
export function describeError(error: unknown): string[] {
  const out: string[] = [];
  for (
    let e = error as { name?: string; message?: string; code?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  )
    out.push(`${e.name}: ${e.message}${e.code ? ` [${e.code}]` : ""}`);
  return out;
}

/** A reset fault as fetch sees it (observed: TypeError "fetch failed", cause SocketError "other side closed" [UND_ERR_SOCKET]). */
export async function expectReset(request: Promise<Response>) {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(describeError(error)[0]).toBe("TypeError: fetch failed");
  expect(describeError(error).join("\n")).toMatch(/UND_ERR_SOCKET|ECONNRESET/);
}
