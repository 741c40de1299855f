import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, operatorHeaders, type Server } from "../helpers/server";
import {
  bash,
  eventsOf,
  exitPlan,
  instanceRunning,
  lines,
  ofType,
  openStream,
  say,
  scripted,
  startCluster,
  stateOf,
  waitStatus,
  type Cluster,
  type LoggedEvent,
  type SseEvent,
} from "../helpers/instances";
import { until } from "../helpers/poll";

// Three `npm start` processes on one PostgreSQL: live streams and a second tab across instances, then an
// instance killed with -9 mid-step (last, since it leaves two instances).
let c: Cluster;
const ALLOW_BASH = { permission: { bash: { "*": "allow" } } };
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const noBrowser = !fs.existsSync(CHROMIUM) && !process.env.CI;
if (noBrowser)
  console.warn(
    `plangate: ${CHROMIUM} is missing, so the second-tab browser test is skipped (apt-get install -y chromium to run it)`,
  );

beforeAll(async () => {
  c = await startCluster("live");
}, 300_000);

afterAll(async () => {
  await c?.stop();
}, 60_000);

const ids = (events: SseEvent[]) => events.map((e) => e.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A stream's events are exactly the log's from `from` on: same ids (= seqs), same content, in order, once each. */
function sameAsLog(received: SseEvent[], log: LoggedEvent[], from = 1) {
  expect(ids(received)).toEqual(range(from, log.length));
  for (const e of received) expect(e.id).toBe(e.data.seq);
  expect(received.map((e) => e.data)).toEqual(log.slice(from - 1));
}

describe("live streams across instances", () => {
  it("events appended through A reach SSE subscribers on B and C in order, without gaps or duplicates; Last-Event-ID resumes on another instance", async () => {
    const [a, b, cc] = c.servers as [Server, Server, Server];
    const ws = await c.workspace("stream", ALLOW_BASH);
    const work = Array.from({ length: 8 }, (_, i) => bash(`sleep 0.3; echo ${i} >> steps.txt`));
    const id = await scripted(a.url, ws, [exitPlan("# Plan\n\n1. eight steps\n"), ...work, { text: "stream done" }], {
      mode: "plan",
    });
    const onB = openStream(b.url, id);
    const onC = openStream(cc.url, id);
    await Promise.all([onB.connected, onC.connected]);
    const created = (await stateOf(a.url, id)).lastSeq;
    await Promise.all([onB, onC].map((s) => s.until((e) => e.length >= created)));

    // A message posted on A: its turn (driven wherever the lease goes) reaches B's and C's subscribers.
    await say(a.url, id, "plan it");
    await waitStatus(c, a.url, id, "awaiting_review");
    const waiting = (await stateOf(a.url, id)).lastSeq;
    await Promise.all([onB, onC].map((s) => s.until((e) => e.at(-1)?.id === waiting)));
    expect(onB.events.at(-1)?.data.type).toBe("review.asked");

    // A subscriber on B is cut mid-turn and resumes on C with Last-Event-ID.
    const cut = openStream(b.url, id, waiting);
    await cut.connected;
    const review = (await http(`${a.url}/api/reviews?status=pending&sessionId=${id}`, "GET")).body.reviews[0] as {
      id: string;
    };
    expect((await http(`${a.url}/api/reviews/${review.id}/decision`, "POST", { decision: "approve" })).status).toBe(
      200,
    );
    await cut.until(
      (e) =>
        ofType(
          e.map((x) => x.data),
          "tool.started",
        ).length >= 2,
      20_000,
    );
    cut.close();
    const cutAt = cut.events.at(-1)!.id;
    const resumed = openStream(cc.url, id, cutAt);

    await waitStatus(c, a.url, id, "idle", 30_000);
    // The first turn after an approval is checked against the plan in the background: the log ends with that.
    const log = await until(
      () => eventsOf(a.url, id),
      (l) => l.at(-1)?.type === "verification.completed",
    );
    expect(ofType(log, "turn.ended")).toHaveLength(1);
    expect(lines(path.join(ws, "steps.txt"))).toEqual(range(0, 7).map(String));
    await Promise.all([onB, onC, resumed].map((s) => s.until((e) => (e.at(-1)?.id ?? 0) >= log.length)));
    await new Promise((r) => setTimeout(r, 1000)); // anything sent twice would have arrived by now
    sameAsLog(onB.events, log);
    sameAsLog(onC.events, log);
    // The cut stream stopped mid-turn; the resumed one on another instance carries on exactly after it.
    expect(cutAt).toBeLessThan(log.length);
    sameAsLog([...cut.events, ...resumed.events], log, waiting + 1);

    // Reconnecting later to C from an earlier id gives exactly the events after it.
    const from = Math.floor(log.length / 2);
    const late = openStream(cc.url, id, from);
    await late.until((e) => (e.at(-1)?.id ?? 0) >= log.length);
    await new Promise((r) => setTimeout(r, 500));
    sameAsLog(late.events, log, from + 1);
    for (const s of [onB, onC, resumed, late]) s.close();
  }, 90_000);
});

describe("a second tab on another instance", () => {
  it.skipIf(noBrowser)(
    "sees a decision made on another instance's page",
    async () => {
      const [a, b] = c.servers as [Server, Server];
      const ws = await c.workspace("browser");
      const id = await scripted(a.url, ws, [exitPlan("# Plan\n\n1. say hello\n"), { text: "Browser done." }], {
        mode: "plan",
      });
      await say(a.url, id, "plan it");
      await waitStatus(c, a.url, id, "awaiting_review");
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
        ],
      });
      try {
        const tabB = await (await browser.newContext({ extraHTTPHeaders: operatorHeaders() })).newPage();
        await tabB.goto(`${b.url}/sessions/${id}`);
        await tabB.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 15_000 });
        await tabB.getByTestId("decision-card").waitFor({ timeout: 15_000 });

        const tabA = await (await browser.newContext({ extraHTTPHeaders: operatorHeaders() })).newPage();
        await tabA.goto(`${a.url}/sessions/${id}`);
        await tabA.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 15_000 });
        const cardA = tabA.getByTestId("decision-card");
        await cardA.getByTestId("approve-options").click();
        await cardA.getByTestId("approve-accept-edits").click();

        // B's page learns of the decision only through B's server, which learns of it through PostgreSQL.
        await tabB.getByTestId("decided-elsewhere").waitFor({ timeout: 15_000 });
        expect(await tabB.getByTestId("decided-elsewhere").textContent()).toContain("Decided in another tab: Approved");
        await tabB.getByTestId("timeline").getByText("Browser done.").waitFor({ timeout: 15_000 });
        expect(await tabB.getByTestId("decision-card").count()).toBe(0);
        expect(await tabB.getByTestId("mode-chip").first().getAttribute("data-mode")).toBe("acceptEdits");
      } finally {
        await browser.close();
      }
      const answered = ofType(await eventsOf(b.url, id), "review.answered");
      expect(answered.map((e) => e.payload.decision)).toEqual(["approve"]);
    },
    90_000,
  );
});

describe("failover", () => {
  it("a turn whose instance is killed with -9 mid-step finishes on another; the cut call is reported interrupted, not re-run", async () => {
    const ws = await c.workspace("failover", ALLOW_BASH);
    const marker = `done-${Math.random().toString(36).slice(2, 10)}`;
    const [a] = c.servers as [Server];
    const id = await scripted(a.url, ws, [
      bash(`sleep 6; echo ${marker} >> out.txt`),
      { text: "finished after the take-over" },
    ]);
    await say(a.url, id, "run it");

    // Mid-step: the call's start is logged and its command runs in some instance's process tree.
    await until(
      async () => ofType(await eventsOf(a.url, id), "tool.started").length,
      (n) => n === 1,
    );
    const holder = await until(
      async () => instanceRunning(c.servers, marker),
      (s) => s !== null,
      5_000,
    );
    const [lease] = await c.query<{ leaseOwner: string | null }>('SELECT "leaseOwner" FROM "Session" WHERE "id" = $1', [
      id,
    ]);
    expect(lease?.leaseOwner).toBeTruthy();
    await holder!.kill9();
    const killedAt = Date.now();
    const survivor = c.servers.find((s) => s !== holder)!;

    // Lease TTL 3 s, sweeps every second: the turn is taken over and ends well within TTL + a few seconds.
    await waitStatus(c, survivor.url, id, "idle", 15_000);
    const tookMs = Date.now() - killedAt;
    expect(tookMs).toBeLessThan(3_000 + 7_000);
    const events = await eventsOf(survivor.url, id);
    const notices = ofType(events, "notice").map((e) => e.payload.text as string);
    expect(notices.filter((t) => t.includes("another instance took the turn over"))).toHaveLength(1);
    const results = ofType(events, "tool.result");
    expect(results).toHaveLength(1);
    expect(results[0]!.payload).toMatchObject({ tool: "bash", ok: false });
    expect(results[0]!.payload.error).toMatch(
      /^Interrupted: Plangate stopped \(a crash or restart\) while this call ran\. It was not run again/,
    );
    expect(ofType(events, "tool.started")).toHaveLength(1);
    expect(ofType(events, "message.assistant").map((e) => [e.payload.step, e.payload.text])).toEqual([
      [0, ""],
      [1, "finished after the take-over"],
    ]);
    expect(ofType(events, "turn.ended").map((e) => e.payload.reason)).toEqual(["done"]);
    // Neither the killed command (its sandbox died with its instance) nor a re-run wrote anything, even after
    // the command's own 6 s would have passed.
    await new Promise((r) => setTimeout(r, Math.max(0, 7_000 - (Date.now() - killedAt))));
    expect(lines(path.join(ws, "out.txt"))).toEqual([]);
    expect(instanceRunning(c.servers, marker)).toBeNull();
    expect((await eventsOf(survivor.url, id)).length).toBe(events.length);
  }, 60_000);
});
