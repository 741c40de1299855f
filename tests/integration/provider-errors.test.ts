import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { readEvents } from "../../lib/session/read-events";
import { settle, testApi, type Api } from "../helpers/api";

// A provider that refuses the key or does not know the model: the turn stops at once (one request, no retry)
// with a message naming the setting to fix.
let status = 401;
let requests = 0;
const server = http.createServer((req, res) => {
  requests++;
  req.resume();
  const body = status === 401 ? { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } } : { type: "error", error: { type: "not_found_error", message: "model: claude-nope" } };
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
});
let base = "";
let api: Api | undefined;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await api?.close();
  api = undefined;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("a provider's 401 and 404", () => {
  it.each([
    [401, "anthropic:claude-x", "Check ANTHROPIC_API_KEY."],
    [404, "anthropic:claude-nope", 'does not know the model "claude-nope"'],
  ])("%s stops the turn at once, naming what to fix", async (code, model, want) => {
    status = code;
    requests = 0;
    api = testApi({ env: { ANTHROPIC_API_KEY: "sk-ant-wrong", ANTHROPIC_BASE_URL: base } });
    const created = await api.call("POST", "/api/sessions", { workspace: api.workspace, model });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.session.id as string;
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "hello" });
    const { status: after, events } = await settle(api, id);
    // Resumable: once the setting is fixed, Retry on the page makes the request again.
    expect(after).toBe("interrupted");
    const notice = events.find((e) => e.type === "notice");
    expect(notice?.type === "notice" ? notice.payload.text : "").toContain(want);
    expect(events.at(-1)).toMatchObject({ type: "turn.ended", payload: { reason: "error" } });
    expect(requests).toBe(1);
    expect((await readEvents(api.t.db, id)).some((e) => e.type === "message.assistant")).toBe(false);
  });
});
