// A hook's wait on a review near its deadline (cli/await-review.ts), against a real HTTP server whose long poll
// holds for the wait it is given and answers as soon as a decision is made: the wait ends before the deadline
// without a burst of instant reads (one of which once outlasted the hook's watchdog, and the plan was refused), and
// a decision made in the last second before the deadline still counts.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { askAndWait, awaitOutcome } from "../../cli/await-review";

const waits: number[] = [];
let decision: { at: number; status: string } = { at: Number.POSITIVE_INFINITY, status: "" };
let url = "";
const server = http.createServer((req, res) => {
  const wait = Number(new URL(req.url ?? "/", "http://x").searchParams.get("wait") ?? 0);
  if (req.method === "GET") waits.push(wait);
  const until = Date.now() + wait * 1000;
  const answer = () => {
    const status = Date.now() >= decision.at ? decision.status : "pending";
    if (status === "pending" && Date.now() < until) return void setTimeout(answer, 10);
    const body = JSON.stringify({ status, requestId: "ask_1", message: null, plan: "", edited: false, mode: "" });
    res.writeHead(req.method === "POST" ? 201 : 200).end(body);
  };
  answer();
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  waits.length = 0;
  decision = { at: Number.POSITIVE_INFINITY, status: "" };
});

describe("waiting on a review up to a deadline", () => {
  it.each([
    ["a plan review", (deadline: number) => awaitOutcome(url, "rev_1", deadline)],
    ["a permission ask", (deadline: number) => askAndWait(url, {}, deadline)],
  ])("%s nobody decides: long polls, then one last instant read, ending before the deadline", async (_what, wait) => {
    const deadline = Date.now() + 2_800;
    expect(await wait(deadline)).toBeNull();
    expect(Date.now()).toBeLessThan(deadline);
    // A poll for the whole seconds left (2, or 1 when the ask's POST was slow), then the last read: never a burst.
    expect(waits.length).toBeLessThanOrEqual(3);
    expect(waits.at(-1)).toBe(0);
    expect(waits.slice(0, -1).every((w) => w >= 1)).toBe(true);
  });

  it.each([
    ["a plan review", "approved", (deadline: number) => awaitOutcome(url, "rev_1", deadline)],
    ["a permission ask", "allow", (deadline: number) => askAndWait(url, {}, deadline)],
  ])("%s decided in the last second before the deadline counts", async (_what, status, wait) => {
    const deadline = Date.now() + 2_500;
    decision = { at: deadline - 400, status };
    expect(await wait(deadline)).toMatchObject({ status });
    expect(Date.now()).toBeLessThan(deadline);
  });

  it("a deadline already under a second still reads the review once", async () => {
    expect(await awaitOutcome(url, "rev_1", Date.now() + 500)).toBeNull();
    expect(waits).toEqual([0]);
  });
});
