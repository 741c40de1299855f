// `npm run bench`: runs every benchmark, prints one JSON document and writes it to bench/results/.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchAppend } from "./append-bench";
import { benchFold } from "./fold-bench";
import { benchPermission } from "./permission-bench";
import { benchTurn } from "./turn-bench";
import { benchList } from "./list-bench";
import { benchPage } from "./page-bench";
import { benchSandbox } from "./sandbox-bench";
import { benchHistory } from "./history-bench";
import { benchSearch } from "./search-bench";
// Before any suite runs: keeps the environment the servers of the `scale` suite start with.
import "./lib/servers";

const only = process.argv.slice(2);
const suites: Record<string, () => Promise<unknown>> = {
  permission: benchPermission,
  append: benchAppend,
  fold: benchFold,
  turn: benchTurn,
  list: benchList,
  page: benchPage,
  sandbox: benchSandbox,
  approval: async () => (await import("./approval-bench")).benchApproval(),
  history: benchHistory,
  search: benchSearch,
  streams: async () => (await import("./stream-bench")).benchStreams(),
  // Issue 16: PostgreSQL (a private cluster, or PLANGATE_BENCH_PG_URL).
  "pg-append": async () => (await import("./pg-append-bench")).benchPgAppend(),
  scale: async () => (await import("./scale-bench")).benchScale(),
  // Issue 26: what identifying the caller costs, in process and through next start.
  request: async () => (await import("./request-bench")).benchRequest(),
  // Issue 29: how fast an agent's hook starts from the bundled CLI, beside a bare node.
  cli: async () => (await import("./cli-bench")).benchCli(),
  // Issue 41: a read and a write tool call, through the confined file worker.
  tools: async () => (await import("./tools-bench")).benchTools(),
  // Issue 43: an open desk tab's cost, and the desk at 1,000 waiting against 10.
  desk: async () => (await import("./desk-bench")).benchDesk(),
  // Issue 43: a common word's search through the API at 50,000 sessions against 1,000.
  // Issue 43: a team's mailbox at 1,000 letters and a session's History at 200 plan versions, against small.
  lists: async () => (await import("./lists-bench")).benchLists(),
  "search-api": async () => (await import("./search-api-bench")).benchSearchApi(),
  // Issue 43: approvals and outside submissions from 8 clients, beside a bare node:http server.
  throughput: async () => (await import("./throughput-bench")).benchThroughput(),
  // Issue 43: what npm start holds while it serves, beside an empty next start; 1,000 idle streams.
  memory: async () => (await import("./memory-bench")).benchMemory(),
  // Issue 43: an approval's time to settle with 15 and 3,000 earlier plan files; a manifest reusing the last one.
  settle: async () => (await import("./settle-bench")).benchSettle(),
};

const results: Record<string, unknown> = {};
const failed: string[] = [];
for (const [name, run] of Object.entries(suites)) {
  if (only.length > 0 && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}…\n`);
  // A suite that fails is reported as failed (and the run exits non-zero), without losing the others' figures.
  try {
    results[name] = await run();
  } catch (error) {
    failed.push(name);
    results[name] = { failed: error instanceof Error ? error.message : String(error) };
    process.stderr.write(
      `bench: ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
}

const report = {
  at: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? "unknown", node: process.version },
  results,
};
const json = JSON.stringify(report, null, 2);
const dir = path.join(import.meta.dirname, "results");
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, `bench-${report.at.replace(/[:.]/g, "-")}.json`), json);
fs.writeFileSync(path.join(dir, "latest.json"), json);
console.log(json);
if (failed.length > 0) {
  process.stderr.write(`bench: failed: ${failed.join(", ")}\n`);
  process.exitCode = 1;
}
// A suite may leave a handle open (a file worker, a pool's timer): the report is written, so the run is over.
process.exit();
