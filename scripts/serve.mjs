// `npm start`: prepares in a short-lived child (scripts/start.ts --prepare: the environment checked, the database
// migrated, a build when sources changed), then serves from this process alone. Plain JavaScript on purpose: no
// TypeScript loader, nor anything else besides the server, stays in memory while it serves.
import { spawnSync } from "node:child_process";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { apiHeaders, serveStream, streamRouteOf } from "./stream-routes.mjs";

const root = path.resolve(import.meta.dirname, "..");
// `plangate serve` from an installed package: built when packed, so never built here (an install has no build tools).
const packaged = process.argv.includes("--packaged");
// Descriptor 3 carries back where to listen, as the prepare step's environment check resolved it.
const prepared = spawnSync(
  process.execPath,
  [
    "--conditions=react-server",
    "--import",
    "tsx",
    path.join(root, "scripts", "start.ts"),
    "--prepare",
    ...(packaged ? ["--packaged"] : []),
  ],
  { cwd: root, stdio: ["inherit", "inherit", "inherit", "pipe"], env: { ...process.env, PLANGATE_PREPARE_FD: "3" } },
);
if (prepared.status !== 0) process.exit(prepared.status ?? 1);
const { host, port } = JSON.parse(String(prepared.output[3]));

// Node closes an idle keep-alive socket after 5 s; a client (a browser, a proxy, a test's request context) that
// reuses one at that instant gets ECONNRESET. Outliving the clients' idle sockets makes them the side that closes.
const KEEP_ALIVE_MS = 65_000;
// Node's default (511) drops the connections of a thousand tabs reopening their streams at once (after a restart):
// their SYNs are retried a second later. The kernel caps it at net.core.somaxconn.
const BACKLOG = 4096;
process.env.NEXT_TELEMETRY_DISABLED = "1";
process.chdir(root);
const require = createRequire(import.meta.url);
// Next's own server, answering every request but the two live streams (scripts/stream-routes.mjs).
const app = require("next")({ dir: root, hostname: host, port, dev: false });
const handle = app.getRequestHandler();
await app.prepare();
// What a request that failed outside any route gets (lib/errors.ts's "internal"), as `next start` answers a 500.
const failed = (res) => (error) => {
  console.error("plangate: a request failed", error);
  if (res.headersSent) return void res.destroy();
  res.writeHead(500, { ...apiHeaders(), "content-type": "application/json" });
  res.end(JSON.stringify({ error: { code: "internal", message: "Something went wrong on the server." } }));
};
const server = http.createServer((req, res) => {
  const stream = streamRouteOf(req);
  if (stream === null) return void Promise.resolve(handle(req, res)).catch(failed(res));
  void serveStream(req, res, stream)
    .then((served) => (served ? undefined : handle(req, res)))
    .catch(failed(res));
});
server.keepAliveTimeout = KEEP_ALIVE_MS;
server.listen({ host, port, backlog: BACKLOG }, () => console.log(`plangate: ready on http://${host}:${port}`));
// As `next start` does: stop accepting, let the requests in progress finish, then exit. The live streams are ended by
// the server's own handler (lib/session/stop-on-signal.ts), which also bounds the wait to a few seconds.
let stopping = false;
for (const [signal, code] of [
  ["SIGTERM", 143],
  ["SIGINT", 130],
])
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close(
      () =>
        void app
          .close()
          .catch(console.error)
          .finally(() => process.exit(code)),
    );
  });
