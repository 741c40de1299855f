import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../lib/auth/rules/cookie-names";
import { holdControlGuard } from "../../lib/sandbox/guard-controls";
import { freshDatabaseUrl, onPostgres } from "../helpers/db";
import { freePort, operatorHeaders, startServer, type Server } from "../helpers/server";

// Issue 41, class 6, on both engines: the data folder holds every plan, message, session token and password hash.
// The attack is any other local account reading it: with the usual umask (022) the server made the folder 0755 and
// the database, its journals and the quarantine 0644. The check: the folder 0700 and every file the server writes
// there 0600, a looser folder left from before tightened on start with a line in the log, and the person's
// workspace files (the default root is inside the data folder) keeping their usual modes.
const mode = (p: string) => fs.statSync(p).mode & 0o777;
const octal = (p: string) => `0${mode(p).toString(8)}`;
const umask = process.umask(0o022);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-rest-"));
// The default root (<data>/workspaces): the suites' own PLANGATE_WORKSPACE_ROOTS must not stand in for it.
delete process.env.PLANGATE_WORKSPACE_ROOTS;
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  process.umask(umask);
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A fresh data folder and its database: on SQLite a file the start script makes there, on PostgreSQL a new database. */
function install(name: string): { dataDir: string; db: string; url: string } {
  const dataDir = path.join(tmp, name, "data");
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const db = path.join(dataDir, "plangate.db");
  return { dataDir, db, url: onPostgres ? freshDatabaseUrl(path.dirname(dataDir)).url : `file:${db}` };
}

async function start(dataDir: string, url: string): Promise<Server> {
  const server = await startServer(
    { PLANGATE_DATA_DIR: dataDir, DATABASE_URL: url, PLANGATE_SANDBOX: "off", PLANGATE_ALLOW_SCRIPTED: "1" },
    await freePort(),
  );
  servers.push(server);
  // A signed-in request reads the cookie secret: the first makes auth-secret in the data folder.
  const res = await fetch(`${server.url}/api/me`, { headers: { cookie: `${SESSION_COOKIE}=forged.value` } });
  expect([200, 401]).toContain(res.status);
  // A write through the server's own connection: SQLite keeps its -wal and -shm beside the database.
  const made = await fetch(`${server.url}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, ...operatorHeaders() },
    body: JSON.stringify({ title: "t", model: "scripted", script: [] }),
  });
  expect(made.status).toBe(201);
  return server;
}

describe("a fresh install under umask 022", () => {
  const { dataDir, db, url } = install("fresh");
  beforeAll(async () => {
    await start(dataDir, url);
  }, 300_000);

  it("the data folder is 0700 and auth-secret 0600", () => {
    expect(octal(dataDir)).toBe("0700");
    expect(octal(path.join(dataDir, "auth-secret"))).toBe("0600");
  });

  it("the database and its journals are 0600 (on PostgreSQL, its files are its own: none is in the data folder)", () => {
    const files = [db, `${db}-wal`, `${db}-shm`, `${db}-journal`].filter((f) => fs.existsSync(f));
    if (onPostgres) {
      expect(files).toEqual([]);
      return;
    }
    expect(files).toContain(`${db}-wal`);
    expect(Object.fromEntries(files.map((f) => [path.basename(f), octal(f)]))).toEqual(
      Object.fromEntries(files.map((f) => [path.basename(f), "0600"])),
    );
  });

  it("the person's workspace files (the sample, in the default root inside the data folder) keep their usual modes", () => {
    const sample = path.join(dataDir, "workspaces", "sample");
    expect(octal(path.join(sample, "README.md"))).toBe("0644");
    expect(octal(path.join(sample, "src"))).toBe("0755");
  });
});

describe("an install left readable by an earlier version", () => {
  const dataDir = path.join(tmp, "loose", "data");
  fs.mkdirSync(dataDir, { recursive: true });
  // An earlier version's database (a migrated copy) and its write-ahead log, as the umask left them.
  const { url, file: db } = freshDatabaseUrl(dataDir);
  const ws = path.join(dataDir, "workspaces", "project");
  let log = "";
  beforeAll(async () => {
    fs.mkdirSync(path.join(dataDir, "quarantine", "2024-01-01", ".claude"), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, "quarantine", "2024-01-01", ".claude", "settings.json"), "{}", { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, "auth-secret"), "an-old-secret-made-readable", { mode: 0o644 });
    fs.mkdirSync(ws, { recursive: true });
    fs.writeFileSync(path.join(ws, "notes.md"), "mine\n", { mode: 0o644 });
    if (!onPostgres) {
      fs.writeFileSync(`${db}-wal`, "");
      fs.chmodSync(db, 0o644);
      fs.chmodSync(`${db}-wal`, 0o644);
    }
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(path.join(dataDir, "auth-secret"), 0o644);
    log = (await start(dataDir, url)).log();
  }, 300_000);

  it("is tightened on start, and the log says what in one line", () => {
    expect(octal(dataDir)).toBe("0700");
    expect(octal(path.join(dataDir, "auth-secret"))).toBe("0600");
    expect(octal(path.join(dataDir, "quarantine"))).toBe("0700");
    expect(octal(path.join(dataDir, "quarantine", "2024-01-01", ".claude"))).toBe("0700");
    expect(octal(path.join(dataDir, "quarantine", "2024-01-01", ".claude", "settings.json"))).toBe("0600");
    const line = log.split("\n").find((l) => l.includes("now for its owner only")) ?? "";
    expect(line).toContain(`${dataDir} (0755 → 0700)`);
    expect(line).toContain("auth-secret (0644 → 0600)");
    expect(line).toContain("quarantine/2024-01-01/.claude/settings.json (0644 → 0600)");
    if (!onPostgres) {
      expect(line).toContain(`${path.basename(db)} (0644 → 0600)`);
      expect(line).toContain(`${path.basename(db)}-wal (0644 → 0600)`);
      expect(octal(db)).toBe("0600");
      expect(octal(`${db}-wal`)).toBe("0600");
    }
  });

  it("the workspace root inside the data folder and the person's files in it keep their modes", () => {
    expect(octal(path.join(dataDir, "workspaces"))).toBe("0755");
    expect(octal(path.join(ws, "notes.md"))).toBe("0644");
    expect(log).not.toContain("notes.md");
  });
});

describe("the quarantine, under umask 022", () => {
  it("keeps what a command planted for the server's user only: folders 0700, files 0600", () => {
    const ws = path.join(tmp, "q-ws");
    const quarantine = path.join(tmp, "q-data", "quarantine");
    fs.mkdirSync(ws, { recursive: true });
    const held = holdControlGuard(ws, quarantine);
    expect(held.guard.cover).toContain(path.join(ws, ".claude"));
    // What a command would have planted where a control folder was missing.
    fs.mkdirSync(path.join(ws, ".claude", "commands"), { recursive: true });
    fs.writeFileSync(path.join(ws, ".claude", "commands", "run.md"), "rm -rf ~\n");
    expect(held.release()).toContain(".claude");
    const [stamp] = fs.readdirSync(quarantine);
    const kept = path.join(quarantine, stamp ?? "", ".claude");
    expect([octal(quarantine), octal(path.join(quarantine, stamp ?? "")), octal(kept)]).toEqual([
      "0700",
      "0700",
      "0700",
    ]);
    expect(octal(path.join(kept, "commands"))).toBe("0700");
    expect(octal(path.join(kept, "commands", "run.md"))).toBe("0600");
  });
});
