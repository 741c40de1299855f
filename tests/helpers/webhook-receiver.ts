import http from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { at: number; path: string; headers: http.IncomingHttpHeaders; body: string };

export type Receiver = {
  url: (path?: string) => string;
  port: number;
  received: Received[];
  close: () => Promise<void>;
};

/**
 * A real HTTP endpoint on loopback that answers with the scripted statuses in turn (then 200) and records
 * every request's raw body and headers, as a webhook consumer would see them.
 */
export async function startReceiver(statuses: number[] = []): Promise<Receiver> {
  const received: Received[] = [];
  const script = [...statuses];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        at: Date.now(),
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(script.shift() ?? 200, { "content-type": "text/plain" });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // fetch keeps connections alive; without this close() would wait for them to time out.
        server.closeAllConnections();
      }),
  };
}
