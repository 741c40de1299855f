// Each provider fault, through each real AI SDK provider against a local server speaking its protocol: what is
// retried, that a half-received tool call never runs, that nothing is logged twice, overflow and abort.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { settle, testApi, type Api } from "../helpers/api";
import { ofType, RIG_KEYS, RIGS, type Rig, type Step } from "../helpers/provider-rigs";
import { getSession } from "../../lib/session/get-session";
import { waitFor } from "../helpers/poll";

let api: Api | undefined;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await api?.close();
  await close?.();
  api = close = undefined;
  for (const name of ["ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "PLANGATE_BASE_URL", "PLANGATE_RETRY_BASE_MS"])
    delete process.env[name];
});

async function start(rig: Rig, steps: Step[], mode = "acceptEdits") {
  const fake = await rig.start(steps);
  close = fake.close;
  // Short waits: the same doubling schedule, scaled down; a provider's retry-after still wins.
  api = testApi({ env: { ...RIG_KEYS, PLANGATE_RETRY_BASE_MS: "40", ...fake.env } });
  const created = await api.call("POST", "/api/sessions", { workspace: api.workspace, model: rig.model, mode });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { fake, id: created.body.session.id as string };
}

async function run(id: string, text = "go") {
  expect((await api!.call("POST", `/api/sessions/${id}/messages`, { text })).status).toBe(202);
  return settle(api!, id, 30_000);
}

const file = (rel: string) => path.join(api!.workspace, rel);
const write = (id: string, rel: string, content: string) => ({ id, name: "write", args: { path: rel, content } });

describe.each(RIGS)("provider faults through $name ($model)", (rig) => {
  it("429 with retry-after, 502, a reset before the first byte and a socket cut mid tool call: retried; the cut call never runs", async () => {
    const { fake, id } = await start(rig, [
      { fault: { kind: "status", status: 429, headers: { "retry-after": "1" } } },
      { fault: { kind: "status", status: 502 } },
      { fault: { kind: "reset" } },
      {
        fault: {
          kind: "cut",
          clean: false,
          text: "Writing it.",
          call: write("call_cut", "cut.txt", "half"),
          atJsonChar: 12,
        },
      },
      { text: "Writing it.", calls: [write("call_ok", "ok.txt", "whole")] },
      { text: "Done." },
    ]);
    const { status, events } = await run(id, "write ok.txt");
    expect(status, JSON.stringify(ofType(events, "notice"))).toBe("idle");
    const retries = ofType(events, "model.retrying");
    expect(retries.map((r) => [r.payload.attempt, r.payload.of, r.payload.reason])).toEqual([
      [2, 5, "429 Too Many Requests"],
      [3, 5, "502 Bad Gateway"],
      [4, 5, "the connection failed"],
      [5, 5, "the connection was cut"],
    ]);
    // retry-after (1 s) wins over the 40 ms backoff; the later waits follow the backoff. An event is stamped when it
    // is appended, after its retryAt was set, so a loaded database shortens the gap by the append's time (CI: 949).
    const waits = retries.map((r) => Date.parse(r.payload.retryAt) - Date.parse(r.at));
    expect(waits[0]).toBeGreaterThanOrEqual(700);
    expect(waits[0]).toBeLessThan(1500);
    expect(waits.slice(1).every((w) => w < 1000)).toBe(true);
    expect(ofType(events, "message.assistant").map((e) => e.payload.text)).toEqual(["Writing it.", "Done."]);
    expect(ofType(events, "tool.called").map((e) => e.payload.callId)).toEqual(["call_ok"]);
    expect(fs.existsSync(file("cut.txt"))).toBe(false);
    expect(fs.readFileSync(file("ok.txt"), "utf8")).toBe("whole");
    expect(fake.seen()).toHaveLength(6);
    // No request after the cut carries any trace of the cut answer.
    for (const seen of fake.seen().slice(4)) expect(seen).not.toContain("call_cut");
  });

  it("a stream that ends cleanly inside a tool call's arguments, then a 503 and a 500: retried; the half call never runs", async () => {
    const { fake, id } = await start(rig, [
      { fault: { kind: "cut", clean: true, call: write("call_cut", "cut.txt", "half"), atJsonChar: 14 } },
      { fault: { kind: "status", status: 503 } },
      { fault: { kind: "status", status: 500 } },
      { calls: [write("call_ok", "ok.txt", "whole")] },
      { text: "Done." },
    ]);
    const { status, events } = await run(id);
    expect(status, JSON.stringify(ofType(events, "notice"))).toBe("idle");
    expect(ofType(events, "model.retrying").map((r) => r.payload.reason)).toEqual([
      expect.stringMatching(/stream ended early/),
      "503 Service Unavailable",
      "500 Internal Server Error",
    ]);
    expect(ofType(events, "tool.called").map((e) => e.payload.callId)).toEqual(["call_ok"]);
    expect(fs.existsSync(file("cut.txt"))).toBe(false);
    expect(ofType(events, "message.assistant")).toHaveLength(2);
    for (const seen of fake.seen().slice(1)) expect(seen).not.toContain("call_cut");
  });

  it.each([401, 404])(
    "a %s stops at once: one request, no retry, a message naming what to fix, and the turn retryable",
    async (status) => {
      const { fake, id } = await start(rig, [{ fault: { kind: "status", status } }, { text: "Fixed now." }]);
      const failed = await run(id);
      expect(failed.status).toBe("interrupted");
      expect(fake.seen()).toHaveLength(1);
      expect(ofType(failed.events, "model.retrying")).toHaveLength(0);
      const notice = ofType(failed.events, "notice").at(-1)?.payload.text ?? "";
      if (status === 401) expect(notice).toContain(rig.keyAdvice);
      else expect(notice).toMatch(/does not know the model ".+" or the address \(404/);
      expect((await api!.call("POST", `/api/sessions/${id}/resume`)).status).toBe(202);
      const after = await settle(api!, id);
      expect(ofType(after.events, "message.assistant").map((e) => e.payload.text)).toEqual(["Fixed now."]);
    },
  );

  it("a context overflow compacts once and asks again, keeping the plan and its file", async () => {
    const { fake, id } = await start(
      rig,
      [
        { text: "Reading.", calls: [{ id: "call_read", name: "read", args: { path: "README.md" } }] },
        { fault: { kind: "overflow" } },
        { text: "Still planning." },
      ],
      "plan",
    );
    const planPath = (await getSession(api!.t.db, id)).state.planPath;
    expect(planPath).toBeTruthy();
    fs.writeFileSync(planPath!, "# Plan\n\n1. Keep me through compaction\n");
    const { status, events } = await run(id, "plan the work");
    expect(status, JSON.stringify(ofType(events, "notice"))).toBe("idle");
    expect(ofType(events, "compaction")).toHaveLength(1);
    expect(ofType(events, "model.retrying")).toHaveLength(0);
    const seen = fake.seen();
    expect(seen).toHaveLength(3);
    expect(seen[2]).toContain(`Your plan file is ${planPath}`);
    expect(seen[2]).toContain("1. Keep me through compaction");
    const { state } = await getSession(api!.t.db, id);
    expect([state.mode, state.planPath]).toEqual(["plan", planPath]);
  });

  it("an abort while the answer streams closes the request and logs the text received, marked partial", async () => {
    const { fake, id } = await start(rig, [{ fault: { kind: "hold", text: "Here is what I found so far" } }]);
    expect((await api!.call("POST", `/api/sessions/${id}/messages`, { text: "go" })).status).toBe(202);
    await waitFor("the request at the provider", () => fake.seen().length > 0);
    // Let the streamed text reach the provider before stopping.
    await new Promise((r) => setTimeout(r, 400));
    expect((await api!.call("POST", `/api/sessions/${id}/abort`)).status).toBeLessThan(300);
    await fake.waitClosed(0);
    const events = await waitFor(
      "the partial answer in the log",
      async () => {
        const { events } = await settle(api!, id);
        return ofType(events, "message.assistant").length > 0 && events;
      },
      5_000,
      50,
    );
    expect(ofType(events, "message.assistant").map((e) => [e.payload.text, e.payload.partial])).toEqual([
      ["Here is what I found so far", true],
    ]);
    expect(ofType(events, "turn.ended").map((e) => e.payload.reason)).toEqual(["aborted"]);
    expect(ofType(events, "model.retrying")).toHaveLength(0);
  });
});
