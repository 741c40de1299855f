// The fault injection of the fake Anthropic server, checked with plain fetch, so that a test driving a real AI SDK
// provider against it knows exactly what went over the wire. The `observed` notes record what undici's fetch
// (Node 20) does on each fault, since provider error handling depends on it.
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "./fake-anthropic";
import { describeError, expectReset, input, inputJson, readAll, sseData } from "./fault-reading";

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
