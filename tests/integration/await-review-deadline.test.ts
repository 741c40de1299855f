// A hook's wait on a review near its deadline (cli/await-review.ts), against a real HTTP server that holds each long
// poll for the wait it is given and answers "pending": the wait ends before the deadline without a burst of instant
// reads (which once ran into a fetch that stayed unsettled past the hook's watchdog, and the plan was refused).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askAndWait, awaitOutcome } from "../../cli/await-review";

const waits: number[] = [];
let url = "";
const server = http.createServer((req, res) => {
  const wait = Number(new URL(req.url ?? "/", "http://x").searchParams.get("wait") ?? 0);
  if (req.method === "GET") waits.push(wait);
  const body = JSON.stringify({ status: "pending", requestId: "ask_1", message: null });
  setTimeout(() => res.writeHead(req.method === "POST" ? 201 : 200).end(body), wait * 1000);
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("waiting on a pending review up to a deadline", () => {
  it.each([
    ["a plan review", () => awaitOutcome(url, "rev_1", Date.now() + 2_500)],
    ["a permission ask", () => askAndWait(url, {}, Date.now() + 2_500)],
  ])("%s: one long poll, then no instant reads in the last second; nothing decided", async (_what, wait) => {
    waits.length = 0;
    const started = Date.now();
    expect(await wait()).toBeNull();
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(waits).toEqual([2]);
  });

  it("a deadline already under a second still reads the review once", async () => {
    waits.length = 0;
    expect(await awaitOutcome(url, "rev_1", Date.now() + 500)).toBeNull();
    expect(waits).toEqual([0]);
  });
});
