// The fault injection of the fake OpenAI Responses server, checked with plain fetch, so that a test driving a real AI SDK
// provider against it knows exactly what went over the wire. The `observed` notes record what undici's fetch
// (Node 20) does on each fault, since provider error handling depends on it.
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAIResponses, type FakeOpenAIResponses } from "./fake-openai-responses";
import { describeError, expectReset, input, inputJson, readAll, sseData } from "./fault-reading";

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
