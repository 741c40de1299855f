import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** A TCP listener that records every connection and byte it gets: an attack's effect shows up here. */
export type Listener = {
  port: number;
  host: string;
  connections: () => number;
  received: () => string;
  close: () => Promise<void>;
};

export async function listen(host = "127.0.0.1"): Promise<Listener> {
  let connections = 0;
  let data = "";
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("data", (d) => (data += d.toString("utf8")));
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    host,
    connections: () => connections,
    received: () => data,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** This host's first non-loopback IPv4 address (what a sandbox with a network of its own can reach), if any. */
export function externalIPv4(): string | null {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return null;
}

/** Every path under root with its type, mode, mtime, size and bytes or link target: any change shows. */
export function treeHash(root: string): string {
  const hash = createHash("sha256");
  const visit = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const st = fs.lstatSync(full);
      hash.update(`${path.relative(root, full)}\0${st.mode}\0${st.mtimeMs}\0${st.size}\0`);
      if (st.isSymbolicLink()) hash.update(`link:${fs.readlinkSync(full)}\0`);
      else if (st.isFile()) hash.update(fs.readFileSync(full));
      else if (st.isDirectory()) visit(full);
    }
  };
  visit(root);
  return hash.digest("hex");
}

type Ask = {
  id: string;
  tool: string;
  permission: string;
  patterns: string[];
  always: string[];
  metadata: Record<string, unknown>;
};
type CallApi = { call: (method: string, url: string, body?: unknown) => Promise<{ status: number; body: any }> };
type Settle = (id: string) => Promise<{ status: string }>;

/**
 * Runs a session's turn to its end, answering every permission ask with `answer` (null leaves it pending and
 * stops). Returns every ask seen, in order.
 */
export async function driveAnswering(
  api: CallApi,
  settle: Settle,
  id: string,
  answer: (ask: Ask) => Record<string, unknown> | null,
): Promise<Ask[]> {
  const seen: Ask[] = [];
  for (;;) {
    const { status } = await settle(id);
    if (status !== "awaiting_permission") return seen;
    const pending = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body
      .permissions as Ask[];
    if (pending.length === 0) return seen;
    for (const ask of pending) {
      seen.push(ask);
      const reply = answer(ask);
      if (reply === null) return seen;
      const res = await api.call("POST", `/api/permissions/${ask.id}/reply`, reply);
      if (res.status !== 200 && res.status !== 409)
        throw new Error(`reply failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
}
