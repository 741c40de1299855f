import { afterEach, describe, expect, it } from "vitest";
import { buildMessages } from "../../lib/agent/build-messages";
import { clearViews, releaseView, takeView } from "../../lib/agent/conversation-cache";
import { viewMessages } from "../../lib/agent/conversation-view";
import { foldEvents } from "../../lib/session/log/fold";
import { readEvents } from "../../lib/db/session-log/read-events";
import { call, settle, startScripted, testApi, type Api, type Step } from "../helpers/api";

let api: Api;
afterEach(async () => {
  await api?.close();
});

const REF = "the plan reference";

/** The view the next drive would take (cached and extended, or rebuilt) against a rebuild of the whole log. */
async function expectViewMatchesLog(id: string): Promise<void> {
  const view = await takeView(api.t.db, id);
  releaseView(id, view);
  const events = await readEvents(api.t.db, id);
  expect(view.lastSeq).toBe(events.at(-1)?.seq);
  expect(viewMessages(view, REF)).toEqual(buildMessages(events, REF));
  expect(view.state).toEqual(foldEvents(events));
}

describe("the driver's incremental conversation view", () => {
  it("equals the log rebuilt from scratch after turns, messages, compactions, a fork and a restart", async () => {
    api = testApi({
      files: { "a.txt": `${"alpha beta gamma ".repeat(60)}\n`, "b.txt": "short\n" },
      env: { PLANGATE_CONTEXT_CHARS: "2500" },
    });
    // Turns of a few reads each; the small context limit makes the driver compact in the middle of turns.
    const script: Step[] = [];
    for (let t = 0; t < 8; t++)
      script.push(call("read", { path: "a.txt" }), call("read", { path: "b.txt", offset: 1 + (t % 2) }), {
        text: `turn ${t} done`,
      });
    const id = await startScripted(api, script, { mode: "default" });
    for (let t = 0; t < 4; t++) {
      await api.call("POST", `/api/sessions/${id}/messages`, { text: `round ${t}` });
      await settle(api, id);
      await expectViewMatchesLog(id);
      if (t === 1) {
        expect((await api.call("POST", `/api/sessions/${id}/messages`, { text: "/compact" })).status).toBe(202);
        await expectViewMatchesLog(id);
      }
    }
    const events = await readEvents(api.t.db, id);
    expect(events.filter((e) => e.type === "compaction").length).toBeGreaterThan(1);

    // A cached view is the one the next drive extends: the same object comes back, brought up to date.
    const cached = await takeView(api.t.db, id);
    releaseView(id, cached);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "after the cache" });
    await settle(api, id);
    const extended = await takeView(api.t.db, id);
    releaseView(id, extended);
    expect(extended).toBe(cached);
    await expectViewMatchesLog(id);

    // A fork starts its own view from its copied log; the source's view goes on from where it was.
    const fork = await api.call("POST", `/api/sessions/${id}/fork`, { atSeq: Math.floor(events.length / 2) });
    expect(fork.status).toBe(201);
    await expectViewMatchesLog(fork.body.session.id);
    await expectViewMatchesLog(id);

    // A restart has no views: the first drive rebuilds from the log, and carries on.
    clearViews();
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "after a restart" });
    await settle(api, id);
    await expectViewMatchesLog(id);
  });
});
