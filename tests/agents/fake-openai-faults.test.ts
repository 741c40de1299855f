// The fault injection of the fake OpenAI chat completions server, checked with plain fetch, so that a test driving a real AI SDK
// provider against it knows exactly what went over the wire. The `observed` notes record what undici's fetch
// (Node 20) does on each fault, since provider error handling depends on it.
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "./fake-openai";
import { describeError, expectReset, input, inputJson, readAll, sseData } from "./fault-reading";

describe("fake-openai faults", () => {
  let fake: FakeOpenAI;
  afterEach(() => fake?.close());
  const post = (body: Record<string, unknown> = {}, signal?: AbortSignal) =>
    fetch(`${fake.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "fake-model",
        stream: true,
        stream_options: { include_usage: true },
        tools: [{ type: "function", function: { name: "bash" } }],
        messages: [{ role: "user", content: "hi" }],
        ...body,
      }),
      signal,
    });

  it("answers a status fault with OpenAI's error JSON and the given headers", async () => {
    fake = await startFakeOpenAI([
      { fault: { kind: "status", status: 429, headers: { "retry-after-ms": "10" } } },
      {
        fault: {
          kind: "status",
          status: 400,
          body: {
            error: {
              message: "maximum context length exceeded",
              type: "invalid_request_error",
              param: "messages",
              code: "context_length_exceeded",
            },
          },
        },
      },
    ]);
    const r1 = await post();
    expect(r1.status).toBe(429);
    expect(r1.headers.get("retry-after-ms")).toBe("10");
    expect(await r1.json()).toMatchObject({
      error: { type: "rate_limit_exceeded", code: "rate_limit_exceeded", param: null },
    });
    const r2 = await post();
    expect(r2.status).toBe(400);
    expect(await r2.json()).toMatchObject({ error: { code: "context_length_exceeded" } });
    expect(fake.requests.map((r) => r.fault)).toEqual(["status", "status"]);
  });

  it("streams a final usage chunk before [DONE]", async () => {
    fake = await startFakeOpenAI([{ text: "hello" }]);
    const data = sseData((await readAll(await post())).text);
    expect(data.at(-1)).toBe("[DONE]");
    const usage = (JSON.parse(data.at(-2)!) as { choices: unknown[]; usage: Record<string, unknown> }).usage;
    expect(usage).toMatchObject({
      prompt_tokens: expect.any(Number),
      completion_tokens: 2,
      prompt_tokens_details: { cached_tokens: 0 },
    });
  });

  it("reset: fetch rejects before any response", async () => {
    fake = await startFakeOpenAI([{ fault: { kind: "reset" } }]);
    await expectReset(post());
  });

  for (const clean of [false, true]) {
    it(`cut (clean=${clean}): the arguments stop mid-JSON with no finish_reason and no [DONE]`, async () => {
      const at = 30;
      fake = await startFakeOpenAI([
        {
          fault: {
            kind: "cut",
            clean,
            text: "Running it.",
            atJsonChar: at,
            toolCalls: [{ name: "bash", args: input, id: "call_1" }],
          },
        },
      ]);
      const { text, error } = await readAll(await post());
      const data = sseData(text);
      expect(data).not.toContain("[DONE]");
      type Chunk = {
        choices: {
          delta: { content?: string; tool_calls?: { id?: string; function: { name?: string; arguments?: string } }[] };
          finish_reason: string | null;
        }[];
        usage?: unknown;
      };
      const chunks = data.map((d) => JSON.parse(d) as Chunk);
      expect(chunks.map((c) => c.choices[0]!.delta.content ?? "").join("")).toBe("Running it.");
      const calls = chunks.flatMap((c) => c.choices[0]!.delta.tool_calls ?? []);
      expect(calls[0]).toMatchObject({ id: "call_1", function: { name: "bash" } });
      expect(calls.map((c) => c.function.arguments ?? "").join("")).toBe(inputJson.slice(0, at));
      expect(chunks.every((c) => c.choices[0]!.finish_reason === null && c.usage === undefined)).toBe(true);
      if (clean) expect(error).toBeUndefined();
      else expect(describeError(error).join("\n")).toMatch(/^TypeError: terminated\n.*UND_ERR_SOCKET/);
    });
  }

  it("hold: sends the text, then waits until the client aborts", async () => {
    fake = await startFakeOpenAI([{ fault: { kind: "hold", text: "Thinking" } }]);
    const abort = new AbortController();
    const res = await post({}, abort.signal);
    const reader = res.body!.getReader();
    let text = "";
    while (sseData(text).length < 4) text += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    await fake.waitClosed(0);
    expect(fake.closedEarly).toEqual([0]);
  });
});
