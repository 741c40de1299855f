// The fault injection of the fake model servers, checked with plain fetch, so that a test driving a real AI SDK
// provider against them knows exactly what went over the wire. The `observed` notes record what undici's fetch
// (Node 20) does on each fault, since provider error handling depends on it.
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "./fake-anthropic";
import { startFakeOpenAI, type FakeOpenAI } from "./fake-openai";
import { startFakeOpenAIResponses, type FakeOpenAIResponses } from "./fake-openai-responses";

const input = { command: "echo hello world", description: "a long enough description to span several deltas", n: 42 };
const inputJson = JSON.stringify(input);

/** Reads the body chunk by chunk, keeping what arrived before a failure. */
async function readAll(res: Response): Promise<{ text: string; error?: unknown }> {
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

const sseData = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => l.slice(6));

/** The error and its cause chain as "name: message [code]" lines. */
function describeError(error: unknown): string[] {
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
async function expectReset(request: Promise<Response>) {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(describeError(error)[0]).toBe("TypeError: fetch failed");
  expect(describeError(error).join("\n")).toMatch(/UND_ERR_SOCKET|ECONNRESET/);
}

describe("fake-anthropic faults", () => {
  let fake: FakeAnthropic;
  afterEach(() => fake?.close());
  const post = (body: Record<string, unknown> = {}, signal?: AbortSignal) =>
    fetch(`${fake.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-test",
        stream: true,
        max_tokens: 100,
        tools: [{ name: "Bash" }],
        messages: [{ role: "user", content: "hi" }],
        ...body,
      }),
      signal,
    });

  it("answers a status fault with Anthropic's error JSON and the given headers, consuming one turn", async () => {
    fake = await startFakeAnthropic({
      turns: [
        { fault: { kind: "status", status: 429, headers: { "retry-after": "3" } } },
        { fault: { kind: "status", status: 529 } },
        { fault: { kind: "status", status: 502, body: "<html>Bad gateway</html>" } },
        [{ type: "text", text: "ok" }],
      ],
    });
    const r1 = await post();
    expect(r1.status).toBe(429);
    expect(r1.headers.get("retry-after")).toBe("3");
    expect(await r1.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
    const r2 = await post();
    expect(r2.status).toBe(529);
    expect(await r2.json()).toMatchObject({ type: "error", error: { type: "overloaded_error" } });
    const r3 = await post();
    expect(r3.status).toBe(502);
    expect(await r3.text()).toBe("<html>Bad gateway</html>");
    expect((await readAll(await post())).text).toContain("message_stop");
    expect(fake.requests.map((r) => [r.turn, r.fault])).toEqual([
      [0, "status"],
      [1, "status"],
      [2, "status"],
      [3, undefined],
    ]);
    expect(fake.closedEarly).toEqual([]);
  });

  it("reset: fetch rejects before any response", async () => {
    fake = await startFakeAnthropic({ turns: [{ fault: { kind: "reset" } }] });
    await expectReset(post());
    expect(fake.requests[0]!.fault).toBe("reset");
    expect(fake.closedEarly).toEqual([]);
  });

  for (const clean of [false, true]) {
    it(`cut (clean=${clean}): the tool input stops mid-JSON with no stop events`, async () => {
      const at = 57;
      fake = await startFakeAnthropic({
        turns: [
          {
            fault: {
              kind: "cut",
              clean,
              atJsonChar: at,
              blocks: [
                { type: "text", text: "Running it." },
                { type: "tool_use", name: "Bash", input, id: "toolu_1" },
              ],
            },
          },
        ],
      });
      const res = await post();
      expect(res.status).toBe(200);
      const { text, error } = await readAll(res);
      const events = sseData(text).map(
        (d) => JSON.parse(d) as { type: string; index?: number; delta?: { type: string; partial_json?: string } },
      );
      const partial = events
        .filter((e) => e.delta?.type === "input_json_delta")
        .map((e) => e.delta!.partial_json)
        .join("");
      expect(partial).toBe(inputJson.slice(0, at));
      expect(events.filter((e) => e.type === "content_block_stop").map((e) => e.index)).toEqual([0]);
      expect(events.some((e) => e.type === "message_delta" || e.type === "message_stop")).toBe(false);
      // observed: clean ends the body normally; otherwise reading rejects with TypeError "terminated",
      // cause SocketError "other side closed" [UND_ERR_SOCKET], after every written event has arrived.
      if (clean) expect(error).toBeUndefined();
      else expect(describeError(error).join("\n")).toMatch(/^TypeError: terminated\n.*UND_ERR_SOCKET/);
      expect(fake.closedEarly).toEqual([]);
    });
  }

  it("rejects a cut that has nothing to cut", async () => {
    await expect(
      startFakeAnthropic({ turns: [{ fault: { kind: "cut", atJsonChar: 1, blocks: [{ type: "text", text: "x" }] } }] }),
    ).rejects.toThrow(/tool_use/);
    await expect(
      startFakeAnthropic({
        turns: [{ fault: { kind: "cut", atJsonChar: 999, blocks: [{ type: "tool_use", name: "Bash", input }] } }],
      }),
    ).rejects.toThrow(/outside/);
  });

  it("stream-error: text deltas, then an SSE error event, then a normal end", async () => {
    fake = await startFakeAnthropic({
      turns: [
        {
          fault: {
            kind: "stream-error",
            blocks: [{ type: "text", text: "Partial answer" }],
            error: { type: "overloaded_error", message: "Overloaded" },
          },
        },
      ],
    });
    const { text, error } = await readAll(await post());
    expect(error).toBeUndefined();
    expect(text).toContain('"text":"Partial answer"');
    expect(text).toMatch(
      /event: error\ndata: \{"type":"error","error":\{"type":"overloaded_error","message":"Overloaded"\}\}\n\n$/,
    );
    expect(text).not.toContain("message_stop");
  });

  it("stream-error without text: the error is the only event (no message_start)", async () => {
    fake = await startFakeAnthropic({
      turns: [
        { fault: { kind: "stream-error", blocks: [], error: { type: "overloaded_error", message: "Overloaded" } } },
      ],
    });
    const res = await post();
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    );
  });

  it("hold: sends the text, then waits until the client aborts", async () => {
    fake = await startFakeAnthropic({
      turns: [[{ type: "text", text: "first" }], { fault: { kind: "hold", text: "Thinking about it" } }],
    });
    await readAll(await post());
    const abort = new AbortController();
    const res = await post({}, abort.signal);
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("Thinking about it")) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain("message_start");
    expect(fake.closedEarly).toEqual([]);
    abort.abort();
    await fake.waitClosed(1);
    expect(fake.closedEarly).toEqual([1]);
    await expect(fake.waitClosed(0, 50)).rejects.toThrow(/not closed early/);
  });
});

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

describe("fake-openai-responses faults", () => {
  let fake: FakeOpenAIResponses;
  afterEach(() => fake?.close());
  const post = (body: Record<string, unknown> = {}, signal?: AbortSignal) =>
    fetch(`${fake.url}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "gpt-fake",
        stream: true,
        tools: [{ type: "function", name: "bash" }],
        input: [{ role: "user", content: [{ type: "input_text", text: "hi" }] }],
        ...body,
      }),
      signal,
    });
  type Event = {
    type: string;
    delta?: string;
    item?: { type: string; call_id?: string; name?: string };
    response?: { usage?: Record<string, unknown> };
  };
  const events = (text: string) => sseData(text).map((d) => JSON.parse(d) as Event);

  it("answers a status fault with OpenAI's error JSON and the given headers, consuming one turn", async () => {
    fake = await startFakeOpenAIResponses([
      { fault: { kind: "status", status: 429, headers: { "retry-after-ms": "10" } } },
      { fault: { kind: "status", status: 500 } },
      {
        fault: {
          kind: "status",
          status: 400,
          body: {
            error: {
              message: "Your input exceeds the context window of this model.",
              type: "invalid_request_error",
              param: "input",
              code: "context_length_exceeded",
            },
          },
        },
      },
      { text: "ok" },
    ]);
    const r1 = await post();
    expect(r1.status).toBe(429);
    expect(r1.headers.get("retry-after-ms")).toBe("10");
    expect(await r1.json()).toMatchObject({
      error: { type: "rate_limit_exceeded", code: "rate_limit_exceeded", param: null },
    });
    const r2 = await post();
    expect(r2.status).toBe(500);
    expect(await r2.json()).toMatchObject({ error: { type: "server_error", code: null, param: null } });
    const r3 = await post();
    expect(r3.status).toBe(400);
    expect(await r3.json()).toMatchObject({ error: { code: "context_length_exceeded" } });
    expect(events((await readAll(await post())).text).at(-1)!.type).toBe("response.completed");
    expect(fake.requests.map((r) => [r.turn, r.fault])).toEqual([
      [0, "status"],
      [1, "status"],
      [2, "status"],
      [3, undefined],
    ]);
    expect(fake.closedEarly).toEqual([]);
  });

  it("estimates usage in response.completed from the request and the output", async () => {
    fake = await startFakeOpenAIResponses([{ text: "hello there", toolCalls: [{ name: "bash", args: input }] }]);
    const last = events((await readAll(await post())).text).at(-1)!;
    expect(last.type).toBe("response.completed");
    const expected = Math.ceil(("hello there" + "bash" + inputJson).length / 4);
    expect(last.response!.usage).toMatchObject({
      input_tokens: Math.ceil(fake.requests[0]!.raw.length / 4),
      output_tokens: expected,
      input_tokens_details: { cached_tokens: 0 },
    });
  });

  it("reset: fetch rejects before any response", async () => {
    fake = await startFakeOpenAIResponses([{ fault: { kind: "reset" } }]);
    await expectReset(post());
    expect(fake.requests[0]!.fault).toBe("reset");
    expect(fake.closedEarly).toEqual([]);
  });

  for (const clean of [false, true]) {
    it(`cut (clean=${clean}): the arguments stop mid-JSON with no done events and no response.completed`, async () => {
      const at = 30;
      fake = await startFakeOpenAIResponses([
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
      const res = await post();
      expect(res.status).toBe(200);
      const { text, error } = await readAll(res);
      const evs = events(text);
      expect(
        evs
          .filter((e) => e.type === "response.output_text.delta")
          .map((e) => e.delta)
          .join(""),
      ).toBe("Running it.");
      expect(evs.filter((e) => e.type === "response.output_item.added").map((e) => e.item!.type)).toEqual([
        "message",
        "function_call",
      ]);
      expect(evs.find((e) => e.item?.type === "function_call")!.item).toMatchObject({
        call_id: "call_1",
        name: "bash",
      });
      expect(
        evs
          .filter((e) => e.type === "response.function_call_arguments.delta")
          .map((e) => e.delta)
          .join(""),
      ).toBe(inputJson.slice(0, at));
      // Only the message item is done.
      expect(evs.filter((e) => e.type === "response.output_item.done").map((e) => e.item!.type)).toEqual(["message"]);
      expect(
        evs.some((e) => e.type === "response.function_call_arguments.done" || e.type === "response.completed"),
      ).toBe(false);
      if (clean) expect(error).toBeUndefined();
      else expect(describeError(error).join("\n")).toMatch(/^TypeError: terminated\n.*UND_ERR_SOCKET/);
      expect(fake.closedEarly).toEqual([]);
    });
  }

  it("rejects a cut that has nothing to cut", async () => {
    await expect(startFakeOpenAIResponses([{ fault: { kind: "cut", atJsonChar: 1, toolCalls: [] } }])).rejects.toThrow(
      /tool call/,
    );
    await expect(
      startFakeOpenAIResponses([
        { fault: { kind: "cut", atJsonChar: 999, toolCalls: [{ name: "bash", args: input }] } },
      ]),
    ).rejects.toThrow(/outside/);
  });

  it("hold: sends the text, then waits until the client aborts", async () => {
    fake = await startFakeOpenAIResponses([{ text: "first" }, { fault: { kind: "hold", text: "Thinking about it" } }]);
    await readAll(await post());
    const abort = new AbortController();
    const res = await post({}, abort.signal);
    const reader = res.body!.getReader();
    let text = "";
    while (
      events(text)
        .filter((e) => e.type === "response.output_text.delta")
        .map((e) => e.delta)
        .join("") !== "Thinking about it"
    )
      text += new TextDecoder().decode((await reader.read()).value);
    expect(
      events(text)
        .map((e) => e.type)
        .slice(0, 4),
    ).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
    ]);
    expect(fake.closedEarly).toEqual([]);
    abort.abort();
    await fake.waitClosed(1);
    expect(fake.closedEarly).toEqual([1]);
    expect(fake.requests.map((r) => r.fault)).toEqual([undefined, "hold"]);
    await expect(fake.waitClosed(0, 50)).rejects.toThrow(/not closed early/);
  });
});
