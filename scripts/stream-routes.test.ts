import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { waitFor } from "../tests/helpers/poll";
// @ts-expect-error: plain JavaScript (scripts/serve.mjs runs with no TypeScript loader), checked by this test.
import { serveStream, streamRouteOf } from "./stream-routes.mjs";

// Which requests scripts/serve.mjs answers beside Next's router: only a GET of one of the two live streams' exact
// paths, the session's id decoded as Next decodes a route's params. Anything else is Next's, so its router, 404s
// and redirects (a trailing slash) stay as they were.
describe("streamRouteOf", () => {
  it.each([
    ["GET", "/api/changes", { name: "changes", id: undefined }],
    ["GET", "/api/changes?since=1700000000000", { name: "changes", id: undefined }],
    ["GET", "/api/sessions/ses_abc/stream", { name: "stream", id: "ses_abc" }],
    ["GET", "/api/sessions/ses%5Fabc/stream?after=3", { name: "stream", id: "ses_abc" }],
    ["GET", "/api/sessions/%E0%A4%A/stream", null],
    ["GET", "/api/sessions/a/b/stream", null],
    ["GET", "/api/sessions//stream", null],
    ["GET", "/api/changes/", null],
    ["GET", "/api//changes", null],
    ["GET", "/API/changes", null],
    ["GET", "http://evil.example/api/changes", null],
    ["HEAD", "/api/changes", null],
    ["POST", "/api/sessions/ses_abc/stream", null],
    ["GET", "/api/sessions/ses_abc/events", null],
  ])("%s %s", (method, url, expected) => {
    expect(streamRouteOf({ method, url })).toEqual(expected);
  });
});

describe("serveStream", () => {
  // The adversary's find: each wait for a slow reader left a "close" listener on the response (hundreds over a long
  // stream, and Node's MaxListeners warning). The attack: a reader that makes the server wait many times.
  it("writes a long stream to a slow reader with nothing left listening on the response", async () => {
    const CHUNK = new Uint8Array(256 * 1024).fill(97);
    const CHUNKS = 60;
    const registry = globalThis as { plangateStreamRoutes?: () => Promise<unknown> };
    registry.plangateStreamRoutes = async () => ({
      changes: async () =>
        new Response(
          new ReadableStream({
            start(c) {
              for (let i = 0; i < CHUNKS; i++) c.enqueue(CHUNK);
              c.close();
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    let left = { drain: -1, close: -1 };
    const server = http.createServer((req, res) => {
      void serveStream(req, res, { name: "changes" }).then(() => {
        left = { drain: res.listenerCount("drain"), close: res.listenerCount("close") };
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { port } = server.address() as AddressInfo;
      const received = await new Promise<number>((resolve, reject) => {
        http.get(`http://127.0.0.1:${port}/api/changes`, (res) => {
          let bytes = 0;
          res.on("data", (d: Buffer) => {
            bytes += d.length;
            // A slow reader: it pauses after every chunk, so the server's buffer fills again and again.
            res.pause();
            setImmediate(() => res.resume());
          });
          res.on("end", () => resolve(bytes));
          res.on("error", reject);
        });
      });
      expect(received).toBe(CHUNK.length * CHUNKS);
      await waitFor("the server's side to finish", () => left.drain !== -1);
      expect(left.drain).toBe(0);
      expect(left.close).toBeLessThanOrEqual(2);
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
      delete registry.plangateStreamRoutes;
      server.close();
    }
  });
});
