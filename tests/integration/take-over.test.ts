import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeOverSessions } from "../../lib/agent/scheduler";
import { createDb, type Db } from "../../lib/db/client";
import { sql } from "../../lib/db/sql";
import { appendEvents } from "../../lib/session/append-events";
import { call, results, settle, startScripted, testApi, type Api } from "../helpers/api";

// The scheduler's sweep as two instances run it at once, on a turn whose instance died mid-step.
let api: Api;
let other: Db;
beforeAll(() => {
  api = testApi({ env: { PLANGATE_LEASE_TTL_MS: "1000" } });
  other = createDb(api.t.url);
});
afterAll(async () => {
  await other.$disconnect();
  await api.close();
});

/** A running turn whose last step issued a bash call that started and never finished, held by a dead instance. */
async function diedMidStep(script: Parameters<typeof startScripted>[1]): Promise<string> {
  const id = await startScripted(api, script);
  await appendEvents(api.t.db, id, [
    { type: "message.user", payload: { text: "go" } },
    { type: "turn.started", payload: { turnId: "trn_dead" } },
    { type: "message.assistant", payload: { text: "", step: 0, model: "scripted", mode: "default" } },
    { type: "tool.called", payload: { callId: "call_cut", tool: "bash", input: { command: "echo ran >> out.txt" } } },
    { type: "tool.started", payload: { callId: "call_cut" } },
  ]);
  await (await sql(api.t.db)).execute('UPDATE "Session" SET "leaseOwner" = ?, "leaseUntil" = ? WHERE "id" = ?', [
    "srv_dead:lse_dead",
    new Date(Date.now() - 5_000),
    id,
  ]);
  return id;
}

describe("taking over a dead instance's turn", () => {
  it("exactly one of two sweeping instances takes it over; the cut call is reported interrupted, not re-run; the turn finishes", async () => {
    const id = await diedMidStep([
      call("bash", { command: "echo ran >> out.txt" }),
      { text: "finished after the take-over" },
    ]);
    const [a, b] = await Promise.all([takeOverSessions(api.t.db), takeOverSessions(other)]);
    expect([...a.tookOver, ...b.tookOver].filter((s) => s === id)).toHaveLength(1);
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    expect(
      events.filter((e) => e.type === "notice" && e.payload.text.includes("another instance took the turn over")),
    ).toHaveLength(1);
    const cut = results(events).find((r) => r.callId === "call_cut");
    expect(cut?.ok).toBe(false);
    expect(JSON.stringify(cut)).toMatch(/interrupted/i);
    expect(events.filter((e) => e.type === "tool.started" && e.payload.callId === "call_cut")).toHaveLength(1);
    expect(
      events.some((e) => e.type === "message.assistant" && e.payload.text === "finished after the take-over"),
    ).toBe(true);
  });

  it("leaves a live lease alone; a runnable session nobody holds is driven, without a take-over notice", async () => {
    const live = await diedMidStep([{ text: "unused" }]);
    await (await sql(api.t.db)).execute('UPDATE "Session" SET "leaseUntil" = ? WHERE "id" = ?', [
      new Date(Date.now() + 60_000),
      live,
    ]);
    const swept = await takeOverSessions(api.t.db);
    expect([...swept.tookOver, ...swept.woke]).not.toContain(live);
    await new Promise((r) => setTimeout(r, 300));
    expect((await api.call("GET", `/api/sessions/${live}`)).body.state.status).toBe("running");

    const unheld = await diedMidStep([
      call("bash", { command: "echo ran >> out.txt" }),
      { text: "driven by the sweep" },
    ]);
    await (await sql(api.t.db)).execute(
      'UPDATE "Session" SET "leaseOwner" = NULL, "leaseUntil" = NULL WHERE "id" = ?',
      [unheld],
    );
    const again = await takeOverSessions(api.t.db);
    expect(again).toMatchObject({ tookOver: [], woke: [unheld] });
    const { status, events } = await settle(api, unheld);
    expect(status).toBe("idle");
    expect(events.some((e) => e.type === "notice" && e.payload.text.includes("took the turn over"))).toBe(false);
    expect(events.some((e) => e.type === "message.assistant" && e.payload.text === "driven by the sweep")).toBe(true);
  });
});
