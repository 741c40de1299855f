// A private PostgreSQL cluster for tests and benchmarks: Debian's binaries, a temporary data folder, loopback
// only, a port of its own. As root the server runs as the `postgres` user (initdb refuses root).
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "./free-port";

export type LocalPostgres = { url: (database?: string) => string; port: number; dir: string; stop: () => void };

/** The folder holding initdb and pg_ctl (the newest Debian version), or null when PostgreSQL is not installed. */
export function postgresBinDir(): string | null {
  const fromEnv = process.env.PLANGATE_PG_BIN;
  if (fromEnv && fs.existsSync(path.join(fromEnv, "initdb"))) return fromEnv;
  const base = "/usr/lib/postgresql";
  if (!fs.existsSync(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], "bin") : null;
}

export async function startLocalPostgres(opts: { port?: number; dir?: string } = {}): Promise<LocalPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed (apt-get install -y postgresql)");
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "plangate-pg-"));
  fs.mkdirSync(dir, { recursive: true });
  const data = path.join(dir, "data");
  const port = opts.port ?? (await freePort());
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync("chown", ["-R", "postgres:postgres", dir]);
  const run = (cmd: string, args: string[]) => {
    const full = path.join(bin, cmd);
    const r = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", full, ...args], { encoding: "utf8" })
      : spawnSync(full, args, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  if (!fs.existsSync(path.join(data, "PG_VERSION")))
    run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]);
  // Durable enough for tests (a crash of the cluster itself is not what they test), and fast on a small VM.
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  run("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-o", options, "-w", "start"]);
  return {
    port,
    dir,
    url: (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    stop: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
      } catch {
        // already stopped
      }
    },
  };
}

// `tsx scripts/local-postgres.ts [port] [dir]`: start one and print its URL (for .ci/run and by hand).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  function usage(why: string): never {
    console.error(`local-postgres: ${why}\nusage: tsx scripts/local-postgres.ts [port] [dir]`);
    process.exit(2);
  }
  let words: string[];
  try {
    words = parseArgs({ options: {}, allowPositionals: true, strict: true }).positionals;
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  const [port, dir] = words;
  if (words.length > 2) usage(`unexpected argument ${JSON.stringify(words[2])}`);
  if (port !== undefined && !/^\d{1,5}$/.test(port)) usage(`the port is a number, not ${JSON.stringify(port)}`);
  const pg = await startLocalPostgres({ port: port === undefined ? undefined : Number(port), dir });
  console.log(pg.url());
}
