// `npm run dev` (`--dev`), and `npm start`'s first step (`--prepare`, run by scripts/serve.mjs): validate the
// environment, create and migrate the database, build when sources changed; then serve (dev), or exit.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { EnvError, isLoopbackHost, parseEnv } from "../lib/env";
import { migrateDatabase } from "../lib/db/migrate";
import { makePrivateDir, tightenDataFolder } from "../lib/db/private-files";
import { isSqliteUrl, sqlitePathFromUrl } from "../lib/db/sqlite-path";
import { databaseWhere, strandedDatabase } from "../lib/db/database-location";
import { ensureSampleWorkspace } from "../lib/workspace/ensure-sample-workspace";
import { createDb } from "../lib/db/client";
import { detectSandbox } from "../lib/sandbox/detect-sandbox";
import { untrustedConfigs } from "../lib/workspace/untrusted-configs";
import { setupLink } from "../lib/auth/setup-link";
import { buildWhenStale } from "./needs-build";
import { buildBundles, bundlesNeedBuild } from "./build-bundles";
import { endChildren } from "./end-children";

const root = path.resolve(import.meta.dirname, "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");

function fail(message: string): never {
  console.error(`\nplangate: ${message}\n`);
  process.exit(1);
}

let dev: boolean;
let packaged: boolean;
try {
  const { values } = parseArgs({
    options: { dev: { type: "boolean" }, prepare: { type: "boolean" }, packaged: { type: "boolean" } },
    strict: true,
  });
  if (values.dev === values.prepare) throw new Error("one of --dev or --prepare");
  if (values.packaged && values.dev) throw new Error("--packaged serves the package's build, never next dev");
  dev = values.dev === true;
  packaged = values.packaged === true;
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\nusage: npm start, or npm run dev (next dev)`);
}

let env: ReturnType<typeof parseEnv>;
try {
  env = parseEnv(process.env, root);
} catch (error) {
  fail(error instanceof EnvError ? error.message : String(error));
}

{
  // The data folder is its owner's only: a looser one left by an earlier version (or made by hand) is tightened.
  const sqliteFile = isSqliteUrl(env.DATABASE_URL) ? sqlitePathFromUrl(env.DATABASE_URL) : null;
  const tightened = tightenDataFolder(env.dataDir, { sqliteFile, keep: env.workspaceRoots });
  makePrivateDir(env.dataDir);
  if (tightened.length > 0)
    console.log(
      `plangate: the data folder was readable by other accounts; now for its owner only: ${tightened.slice(0, 12).join(", ")}${tightened.length > 12 ? ` and ${tightened.length - 12} more` : ""}`,
    );
}
const stranded = strandedDatabase(env, root);
for (const dir of env.workspaceRoots) fs.mkdirSync(dir, { recursive: true });
if (env.workspaceRoots[0]) ensureSampleWorkspace(env.workspaceRoots[0]);
await migrateDatabase(env.DATABASE_URL, { quiet: true });
const where = databaseWhere(env.DATABASE_URL, root);
console.log(
  `plangate: database ready: ${where} (${env.databaseUrlSet ? "DATABASE_URL" : "plangate.db in PLANGATE_DATA_DIR"})`,
);
if (stranded)
  console.warn(
    `plangate: WARNING: an older database is at ${stranded}, but PLANGATE_DATA_DIR now holds the database, so this start uses a new, empty one at ${where}. To keep the old data, stop the server and move it (with its -wal and -shm files): mv ${stranded}* ${path.dirname(where)}/`,
  );

const origin = `http://${env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST}:${env.PORT}`;
// Said at start, not only on the page: without bubblewrap, an approved command runs as this user, with the network.
if (!detectSandbox().available) {
  const why =
    env.PLANGATE_SANDBOX === "off"
      ? "PLANGATE_SANDBOX=off"
      : "bubblewrap (bwrap) is not installed or cannot create namespaces here";
  console.warn(
    `plangate: WARNING: shell commands will NOT be sandboxed (${why}). In plan mode only the read-only allowlist runs, and an approved command ` +
      "runs as this user with this machine's network. Install the sandbox: apt-get install bubblewrap slirp4netns (Debian/Ubuntu).",
  );
}
{
  const db = createDb(env.DATABASE_URL);
  try {
    const configs = await untrustedConfigs(db, env.workspaceRoots);
    for (const r of configs.refused)
      console.warn(`plangate: ${r.workspace}: ${r.error}; nothing of it applies until it is fixed`);
    for (const u of configs.waiting) {
      console.log(
        `plangate: ${u.workspace}/.plangate/config.json waits for a person's trust; until then it only narrows (it would allow: ${u.widening.join("; ")}). Review it at ${origin}/workspace?path=${encodeURIComponent(u.workspace)}`,
      );
    }
    // A passkey's site cannot be an IP address: on loopback the link names localhost.
    const link = await setupLink(db, isLoopbackHost(env.HOST) ? `http://localhost:${env.PORT}` : origin);
    if (link)
      console.log(`plangate: no account yet. Open this one-time link to create the owner account:\n\n    ${link}\n`);
  } finally {
    await db.$disconnect();
  }
}

// The CLI file agents' hooks run and GET /cli/plangate.mjs serves, and the file tools' worker (a second or two).
// A package's were built when it was installed; its files' times say nothing about what is newer.
if (!packaged && bundlesNeedBuild()) await buildBundles();

const childEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
if (packaged && !fs.existsSync(path.join(root, ".next", "BUILD_ID")))
  fail(`this package has no build (${path.join(root, ".next")}); pack it again with npm pack`);
if (!dev && !packaged) {
  // Instances started together from one checkout build once: the others wait, then find the build fresh.
  const failed = buildWhenStale(root, true);
  if (failed) fail(failed);
}

console.log(`plangate: serving on ${origin}`);
// `npm start` serves from scripts/serve.mjs's own process, so nothing of this one (tsx, esbuild) stays alive beside it;
// it listens where this checked environment says, told on the descriptor serve.mjs opened for it (and only then:
// run by hand, descriptor 3 may be anything the caller left open).
if (!dev) {
  if (process.env.PLANGATE_PREPARE_FD === "3") fs.writeSync(3, JSON.stringify({ host: env.HOST, port: env.PORT }));
  await endChildren();
  process.exit(0);
}

const server = spawn(process.execPath, [nextBin, "dev", "-H", env.HOST, "-p", String(env.PORT)], {
  cwd: root,
  stdio: "inherit",
  env: childEnv,
});
// The server ends its live streams and exits within a few seconds of the signal (lib/session/stop-on-signal.ts);
// should it still be there after this, it is killed: a service manager's stop must never hang.
const KILL_AFTER_MS = 4_500;
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    server.kill(signal);
    setTimeout(() => server.kill("SIGKILL"), KILL_AFTER_MS).unref();
  });
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
