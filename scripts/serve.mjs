// `npm start`: prepares in a short-lived child (scripts/start.ts --prepare: the environment checked, the database
// migrated, a build when sources changed), then serves from this process alone. Plain JavaScript on purpose: no
// TypeScript loader, nor anything else besides the server, stays in memory while it serves.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

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
const KEEP_ALIVE_MS = "65000";
process.env.NEXT_TELEMETRY_DISABLED = "1";
process.chdir(root);
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
process.argv = [
  process.execPath,
  nextBin,
  "start",
  "-H",
  host,
  "-p",
  String(port),
  "--keepAliveTimeout",
  KEEP_ALIVE_MS,
];
// The server's own handler (lib/session/stop-on-signal.ts) ends it within a few seconds of SIGTERM or SIGINT.
createRequire(import.meta.url)(nextBin);
