// The approval benchmark's HTTP on the wire (bench/approval-bench.ts): a floor server that fans a POST out to its
// SSE clients, an SSE client that times the chunk carrying a marker, and a POST on one kept-alive socket.
import http from "node:http";
import type { AddressInfo } from "node:net";

export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

/** The floor: POST /post writes its body as an event to every connected GET /sse client, then answers. */
export function floorServer(): http.Server {
  const clients = new Set<http.ServerResponse>();
  return http.createServer(async (req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(": connected\n\n");
      clients.add(res);
      res.on("close", () => clients.delete(res));
      return;
    }
    const body = await readBody(req);
    for (const c of clients) c.write(`data: ${body}\n\n`);
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
}

export type Subscriber = { seen: (marker: string) => Promise<number>; close: () => void };

/**
 * An SSE client on its own connection: resolves `seen(marker)` with the time the chunk carrying it arrived (now,
 * when it arrived before the call).
 */
export function subscribe(port: number, urlPath: string, headers: Record<string, string> = {}): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    let text = "";
    let ready = false;
    let waiting: { marker: string; done: (t: number) => void } | null = null;
    const req = http.get({ host: "127.0.0.1", port, path: urlPath, agent: false, headers }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`${urlPath} answered ${res.statusCode}`));
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        const now = performance.now();
        text += chunk;
        if (waiting && text.includes(waiting.marker)) {
          waiting.done(now);
          waiting = null;
        }
        if (ready || !text.includes(": connected")) return;
        ready = true;
        resolve({
          seen: (marker) =>
            new Promise((done) => (text.includes(marker) ? done(performance.now()) : (waiting = { marker, done }))),
          close: () => req.destroy(),
        });
      });
    });
    req.on("socket", (s) => s.setNoDelay(true));
    req.on("error", (e) => (e.message.includes("socket hang up") ? undefined : reject(e)));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function post(port: number, urlPath: string, body: string, cookie?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: urlPath,
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          origin: `http://127.0.0.1:${port}`,
          ...(cookie ? { cookie } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("socket", (s) => s.setNoDelay(true));
    req.on("error", reject);
    req.end(body);
  });
}
