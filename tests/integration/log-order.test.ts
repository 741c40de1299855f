// Issue 42, point 10: the log says what is true, in the order it happened. Driven over the wire through the real
// AI SDK provider against a fake OpenAI-compatible API that records each request and refuses, as OpenAI does, a
// request with a message between an assistant's tool calls and their results.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { awaitReview, settle, testApi, type Api } from "../helpers/api";
import { ofType } from "../helpers/plan-kit";
import { RIG_KEYS } from "../helpers/provider-rigs";
import { messageText, startFakeOpenAI, type FakeOpenAI, type ScriptStep, type Turn } from "../agents/fake-openai";
import { readEvents } from "../../lib/db/session-log/read-events";
import type { SessionEvent } from "../../lib/session/log/events";
import { waitFor } from "../helpers/poll";

let api: Api | undefined;
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await api?.close();
  await fake?.close();
  api = fake = undefined;
  delete process.env.PLANGATE_BASE_URL;
});

async function start(script: ScriptStep[], mode: string): Promise<string> {
  fake = await startFakeOpenAI(script, { strictOrder: true });
  api = testApi({ env: { ...RIG_KEYS, PLANGATE_BASE_URL: fake.url } });
  const created = await api.call("POST", "/api/sessions", {
    workspace: api.workspace,
    model: "openai-compatible:llama-fake",
    mode,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.session.id as string;
}

async function say(id: string, text: string) {
  const sent = await api!.call("POST", `/api/sessions/${id}/messages`, { text });
  expect(sent.status, JSON.stringify(sent.body)).toBe(202);
  return sent.body as { turn: { id: string; queued: boolean } | null };
}

const seqOf = (events: SessionEvent[], pred: (e: SessionEvent) => boolean) => events.find(pred)?.seq ?? -1;
const resultSeq = (events: SessionEvent[], callId: string) =>
  seqOf(events, (e) => e.type === "tool.result" && e.payload.callId === callId);

/** A request's conversation, one line a message: role, then the tool call ids it makes or answers, or its text. */
const shape = (messages: { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }[]) =>
  messages
    .filter((m) => m.role !== "system")
    .map((m) =>
      m.role === "tool"
        ? `tool ${m.tool_call_id}`
        : m.tool_calls?.length
          ? `assistant ${m.tool_calls.map((c) => c.id).join(",")}`
          : `${m.role} ${messageText(m as Parameters<typeof messageText>[0])}`,
    );

describe("the fake provider", () => {
  it("refuses, as OpenAI does, a message between an assistant's tool call and its result", async () => {
    fake = await startFakeOpenAI([{ text: "fine" }], { strictOrder: true });
    const post = (messages: unknown[]) =>
      fetch(`${fake!.url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages, tools: [{ type: "function", function: { name: "read" } }] }),
      });
    const call = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", function: { name: "read", arguments: "{}" } }],
    };
    const bad = await post([
      { role: "user", content: "go" },
      call,
      { role: "user", content: "hurry" },
      { role: "tool", tool_call_id: "c1", content: "x" },
    ]);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("c1");
    const good = await post([
      { role: "user", content: "go" },
      call,
      { role: "tool", tool_call_id: "c1", content: "x" },
      { role: "user", content: "hurry" },
    ]);
    expect(good.status).toBe(200);
    expect(fake.main().map((r) => r.refused === undefined)).toEqual([false, true]);
  });
});

describe("a mode change caused by an approval takes effect at the step boundary", () => {
  it("while a command issued beside exit_plan_mode runs, the session says plan mode; the switch is logged after its siblings' results", async () => {
    const plan = "# Plan\n\n1. Wait for the release file.\n";
    const slow = "until [ -e release ]; do sleep 0.05; done; echo slow-done";
    const id = await start(
      [
        {
          toolCalls: [
            { id: "call_exit", name: "exit_plan_mode", args: { plan } },
            { id: "call_slow", name: "bash", args: { command: slow } },
            { id: "call_write", name: "write", args: { path: "src/sneaked.txt", content: "x\n" } },
          ],
        },
        { text: "Done." },
      ],
      "plan",
    );
    await say(id, "plan the release");
    const review = await awaitReview(api!, id);
    const decided = await api!.call("POST", `/api/reviews/${review}/decision`, {
      decision: "approve",
      mode: "acceptEdits",
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);

    // The command issued beside exit_plan_mode has started (and waits for the release file).
    await waitFor("the slow command's start", async () =>
      (await readEvents(api!.t.db, id)).some((e) => e.type === "tool.started" && e.payload.callId === "call_slow"),
    );
    const during = (await api!.call("GET", `/api/sessions/${id}`)).body.state;
    expect(during).toMatchObject({
      mode: "plan",
      plan: { active: true, pending: true },
      queuedMode: "acceptEdits",
      status: "running",
    });
    fs.writeFileSync(path.join(api!.workspace, "release"), "");

    const { status, events } = await settle(api!, id, 30_000);
    expect(status).toBe("idle");
    const changed = events.filter((e) => e.type === "mode.changed");
    expect(changed.map((e) => e.payload)).toEqual([
      { from: "plan", to: "acceptEdits", prePlanMode: null, cause: "review" },
    ]);
    const at = changed[0]!.seq;
    for (const callId of ["call_exit", "call_slow", "call_write"]) expect(resultSeq(events, callId)).toBeLessThan(at);
    // Before the model's next request: it is made in the new mode.
    expect(seqOf(events, (e) => e.type === "message.assistant" && e.payload.text === "Done.")).toBeGreaterThan(at);
    const results = ofType(events, "tool.result");
    expect(results.find((r) => r.callId === "call_slow")).toMatchObject({ ok: true });
    expect(String(results.find((r) => r.callId === "call_slow")?.output)).toContain("slow-done");
    // The write issued in plan mode was still judged by plan mode, and told so.
    expect(results.find((r) => r.callId === "call_write")?.error).toContain("issued in plan mode");
    expect(fs.existsSync(path.join(api!.workspace, "src/sneaked.txt"))).toBe(false);
    expect((await api!.call("GET", `/api/sessions/${id}`)).body.state).toMatchObject({
      mode: "acceptEdits",
      queuedMode: null,
      plan: { active: false, pending: false },
    });
    const [, next] = fake!.main();
    expect(next?.refused).toBeUndefined();
    expect(shape(next!.body.messages).slice(1, 5)).toEqual([
      "assistant call_exit,call_slow,call_write",
      "tool call_exit",
      "tool call_slow",
      "tool call_write",
    ]);
    // The work is checked against the plan after the turn (in the background): let it finish before the test ends.
    await waitFor("the check of the work", async () =>
      (await readEvents(api!.t.db, id)).some((e) => e.type === "verification.completed"),
    );
  });
});

/** A model step whose answer is held until released: its request stays in flight meanwhile. */
function heldStep(answer: Turn) {
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  const step: ScriptStep = async () => {
    await held;
    return answer;
  };
  return { step, release };
}

describe("a message sent while a model request is in flight", () => {
  it("/plan <message> goes after that step's tool results in the next request, which the provider accepts", async () => {
    const first = heldStep({ toolCalls: [{ id: "call_read", name: "read", args: { path: "README.md" } }] });
    const id = await start([first.step, { text: "Planned." }], "default");
    await say(id, "look at the readme");
    await fake!.waitFor(() => true);
    // The step's request is in flight (its response held): the person's /plan <message> is logged meanwhile.
    const sent = await say(id, "/plan then plan a done flag");
    expect(sent.turn?.queued).toBe(true);
    expect(
      (await readEvents(api!.t.db, id)).some(
        (e) => e.type === "message.user" && e.payload.text === "then plan a done flag",
      ),
    ).toBe(true);
    first.release();

    const { status, events } = await settle(api!, id, 30_000);
    expect(status).toBe("idle");
    const requests = fake!.main();
    expect(requests.map((r) => r.refused ?? "accepted")).toEqual(["accepted", "accepted"]);
    const conversation = shape(requests[1]!.body.messages);
    expect(conversation.slice(0, 4)).toEqual([
      "user look at the readme",
      "assistant call_read",
      "tool call_read",
      "user then plan a done flag",
    ]);
    // The queued /plan took effect at that step boundary, before the next request.
    expect(ofType(events, "mode.changed").map((c) => [c.to, c.cause])).toEqual([["plan", "command"]]);
    expect(ofType(events, "message.assistant").at(-1)).toMatchObject({ text: "Planned.", mode: "plan" });
  });

  it("a message sent during the turn's last, text-only request is answered by a next request, not left waiting", async () => {
    const first = heldStep({ text: "Here is the summary." });
    const id = await start([first.step, { text: "Yes: the done flag too." }], "default");
    await say(id, "summarise the readme");
    await fake!.waitFor(() => true);
    // The request is in flight and will answer with text only (which would end the turn): the person writes meanwhile.
    const sent = await say(id, "and the done flag?");
    expect(sent.turn?.queued).toBe(true);
    first.release();

    const { status, events } = await settle(api!, id, 30_000);
    expect(status).toBe("idle");
    const requests = fake!.main();
    // Before the fix the turn ended with the text-only step: one request, and the question sat unanswered.
    expect(requests.map((r) => r.refused ?? "accepted")).toEqual(["accepted", "accepted"]);
    expect(shape(requests[1]!.body.messages)).toEqual([
      "user summarise the readme",
      "assistant Here is the summary.",
      "user and the done flag?",
    ]);
    expect(ofType(events, "turn.ended")).toHaveLength(1);
    const question = seqOf(events, (e) => e.type === "message.user" && e.payload.text === "and the done flag?");
    const answer = seqOf(events, (e) => e.type === "message.assistant" && e.payload.text === "Yes: the done flag too.");
    expect(answer).toBeGreaterThan(question);
  });
});
