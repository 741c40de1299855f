// Faults and outcomes shown through one provider (the faults every provider meets are in
// provider-fault-matrix.test.ts): a mid-stream error event, giving up and the person's retry, a retry-after too
// long to wait, an overflow compaction cannot fix, what a turn used, and running out of output tokens mid call.
import { afterEach, describe, expect, it } from "vitest";
import { settle, testApi, type Api } from "../helpers/api";
import { startFakeAnthropic, allText, type ScriptTurn } from "../agents/fake-anthropic";
import { startFakeOpenAIResponses } from "../agents/fake-openai-responses";
import { getSession } from "../../lib/session/get-session";
import { ofType } from "../helpers/provider-rigs";

const KEYS = { ANTHROPIC_API_KEY: "sk-ant-test-0001" };
// Short waits: the schedule is the same (doubling from the base), only scaled down.
const FAST = { PLANGATE_RETRY_BASE_MS: "40" };

let api: Api | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const close of closers.splice(0)) await close();
  for (const name of [
    "ANTHROPIC_BASE_URL",
    "OPENAI_BASE_URL",
    "PLANGATE_MODEL_ATTEMPTS",
    "PLANGATE_RETRY_BASE_MS",
    "PLANGATE_MAX_TURN_TOKENS",
  ])
    delete process.env[name];
});

async function anthropic(turns: ScriptTurn[], env: Record<string, string> = {}) {
  const fake = await startFakeAnthropic({ turns });
  closers.push(fake.close);
  api = testApi({ env: { ...KEYS, ...FAST, ANTHROPIC_BASE_URL: fake.url, ...env } });
  return fake;
}

async function session(model: string, mode = "acceptEdits"): Promise<string> {
  const created = await api!.call("POST", "/api/sessions", { workspace: api!.workspace, model, mode });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.session.id as string;
}

async function run(id: string, text = "go") {
  expect((await api!.call("POST", `/api/sessions/${id}/messages`, { text })).status).toBe(202);
  return settle(api!, id, 30_000);
}

describe("faults on the Anthropic Messages API", () => {
  it("a mid-stream overload (an error event inside a 200) is retried too", async () => {
    await anthropic([
      {
        fault: {
          kind: "stream-error",
          blocks: [{ type: "text", text: "Thinking" }],
          error: { type: "overloaded_error", message: "Overloaded" },
        },
      },
      [{ type: "text", text: "All good." }],
    ]);
    const id = await session("anthropic:claude-fake");
    const { events } = await run(id);
    expect(ofType(events, "model.retrying").map((r) => r.payload.reason)).toEqual(["overloaded error"]);
    expect(ofType(events, "message.assistant").map((e) => e.payload.text)).toEqual(["All good."]);
  });

  it("after the last attempt the turn ends with a clear error, and the person's retry goes on from the log", async () => {
    const fake = await anthropic(
      [
        { fault: { kind: "status", status: 500 } },
        { fault: { kind: "status", status: 502 } },
        { fault: { kind: "status", status: 503 } },
        [{ type: "text", text: "Back again." }],
      ],
      { PLANGATE_MODEL_ATTEMPTS: "3" },
    );
    const id = await session("anthropic:claude-fake");
    const failed = await run(id, "hello");
    expect(failed.status).toBe("interrupted");
    const notice = ofType(failed.events, "notice").at(-1)?.payload.text ?? "";
    expect(notice).toMatch(/failed 3 times \(last: 503 Service Unavailable/);
    expect(failed.events.at(-1)).toMatchObject({ type: "turn.ended", payload: { reason: "error" } });
    expect(ofType(failed.events, "message.assistant")).toHaveLength(0);
    expect(fake.mainRequests()).toHaveLength(3);

    const resumed = await api!.call("POST", `/api/sessions/${id}/resume`);
    expect(resumed.status).toBe(202);
    expect(resumed.body.turn).not.toBeNull();
    const after = await settle(api!, id);
    expect(after.status).toBe("idle");
    expect(ofType(after.events, "message.assistant").map((e) => e.payload.text)).toEqual(["Back again."]);
    expect(ofType(after.events, "message.user")).toHaveLength(1);
    // The retried request carried the same conversation (the one user message), once.
    expect(allText(fake.mainRequests()[3]!.body).match(/hello/g)).toHaveLength(1);
  });

  it("a provider asking to wait longer than a turn waits ends the turn at once, naming the wait", async () => {
    const fake = await anthropic([{ fault: { kind: "status", status: 429, headers: { "retry-after": "3600" } } }]);
    const id = await session("anthropic:claude-fake");
    const { status, events } = await run(id);
    expect(status).toBe("interrupted");
    expect(ofType(events, "notice").at(-1)?.payload.text).toMatch(
      /asked to wait 3600 s before trying again \(429 Too Many Requests\)/,
    );
    expect(fake.mainRequests()).toHaveLength(1);
  });

  it("an overflow that compaction cannot fix ends the turn with a message saying so (one compaction)", async () => {
    const overflow = {
      fault: {
        kind: "status" as const,
        status: 400,
        body: {
          type: "error",
          error: { type: "invalid_request_error", message: "prompt is too long: 250000 tokens > 200000 maximum" },
        },
      },
    };
    const fake = await anthropic([
      [{ type: "tool_use", id: "toolu_read", name: "read", input: { path: "README.md" } }],
      overflow,
      overflow,
      overflow,
    ]);
    const id = await session("anthropic:claude-fake");
    const { status, events } = await run(id);
    expect(status).toBe("interrupted");
    expect(ofType(events, "compaction")).toHaveLength(1);
    expect(ofType(events, "notice").at(-1)?.payload.text).toMatch(
      /does not fit the model's context window, even compacted/,
    );
    expect(fake.mainRequests()).toHaveLength(3);
  });

  it("logs each step's usage as the provider reported it and the turn's sum; PLANGATE_MAX_TURN_TOKENS ends a turn between steps", async () => {
    const fake = await anthropic([
      [{ type: "tool_use", id: "toolu_read", name: "read", input: { path: "README.md" } }],
      [{ type: "text", text: "Read it." }],
    ]);
    const id = await session("anthropic:claude-fake");
    const { events } = await run(id);
    const steps = ofType(events, "message.assistant");
    const reported = fake.mainRequests().map((r) => Math.max(1, Math.ceil(JSON.stringify(r.body ?? {}).length / 4)));
    expect(steps.map((s) => s.payload.usage?.input)).toEqual(reported);
    expect(steps.every((s) => (s.payload.usage?.output ?? 0) > 0 && s.payload.usage?.cacheRead === 0)).toBe(true);
    const ended = ofType(events, "turn.ended")[0]!;
    expect(ended.payload.usage).toEqual({
      input: reported[0]! + reported[1]!,
      output: steps.reduce((n, s) => n + (s.payload.usage?.output ?? 0), 0),
      cacheRead: 0,
      cacheWrite: 0,
    });
    expect((await getSession(api!.t.db, id)).state.usage).toEqual(ended.payload.usage);

    await api!.close();
    const limited = await anthropic(
      [
        [{ type: "tool_use", id: "toolu_read", name: "read", input: { path: "README.md" } }],
        [{ type: "text", text: "never asked" }],
      ],
      { PLANGATE_MAX_TURN_TOKENS: "100" },
    );
    const id2 = await session("anthropic:claude-fake");
    const capped = await run(id2);
    expect(capped.status).toBe("idle");
    expect(limited.mainRequests()).toHaveLength(1);
    expect(ofType(capped.events, "tool.result")).toHaveLength(1);
    expect(capped.events.at(-1)).toMatchObject({ type: "turn.ended", payload: { reason: "max_tokens" } });
    expect(ofType(capped.events, "notice").at(-1)?.payload.text).toMatch(/past PLANGATE_MAX_TURN_TOKENS \(100\)/);
  });
});

describe("running out of output tokens inside a tool call (OpenAI Responses, max_output_tokens)", () => {
  it("ends the turn at once with a message saying so: asking again would end the same way, and the half call never runs", async () => {
    const fake = await startFakeOpenAIResponses([
      {
        fault: {
          kind: "cut",
          toolCalls: [{ id: "call_big", name: "write", args: { path: "big.txt", content: "x".repeat(200) } }],
          atJsonChar: 60,
          outOfTokens: true,
        },
      },
    ]);
    closers.push(fake.close);
    api = testApi({
      env: { OPENAI_API_KEY: "sk-openai-test-0002", OPENAI_BASE_URL: fake.url, PLANGATE_RETRY_BASE_MS: "40" },
    });
    const id = await session("openai:gpt-fake");
    const { status, events } = await run(id);
    expect(status).toBe("interrupted");
    expect(fake.requests).toHaveLength(1);
    expect(ofType(events, "model.retrying")).toHaveLength(0);
    expect(ofType(events, "tool.called")).toHaveLength(0);
    expect(ofType(events, "notice").at(-1)?.payload.text).toMatch(/output token limit in the middle of a tool call/);
  });
});
