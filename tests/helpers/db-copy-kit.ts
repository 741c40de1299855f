// What the db:copy suite (tests/integration/db-copy.test.ts) reads and runs: every table as Prisma maps it, the
// copy script as a person runs it, and a SQLite snapshot of the source for a test to spoil.
import { spawnSync } from "node:child_process";
import path from "node:path";
import Database from "better-sqlite3";
import type { Db } from "../../lib/db/client";

const root = path.resolve(import.meta.dirname, "..", "..");
export const V1 = "# Plan: cache\n\n1. Add a cache\n2. Use Redis for it\n3. Write tests\n";
export const V2 = "# Plan: cache\n\n1. Add a cache\n2. Use an in-memory map for it\n3. Write tests\n";

/** Every table through Prisma (its own Date/boolean mapping), in key order: what a copy must keep exactly. */
export async function dump(db: Db): Promise<Record<string, unknown[]>> {
  const byId = { orderBy: { id: "asc" as const } };
  const sessions = (await db.session.findMany(byId)).map(({ searchDocs: _rebuilt, ...rest }) => rest);
  return {
    Team: await db.team.findMany(byId),
    Session: sessions,
    SessionEvent: await db.sessionEvent.findMany({ orderBy: [{ sessionId: "asc" }, { seq: "asc" }] }),
    ModeChange: await db.modeChange.findMany(byId),
    Plan: await db.plan.findMany(byId),
    PlanVersion: await db.planVersion.findMany(byId),
    PlanComment: await db.planComment.findMany(byId),
    Review: await db.review.findMany(byId),
    PermissionRequest: await db.permissionRequest.findMany(byId),
    PermissionGrant: await db.permissionGrant.findMany(byId),
    MailboxMessage: await db.mailboxMessage.findMany(byId),
    Setting: await db.setting.findMany({ orderBy: { key: "asc" } }),
    Verification: await db.verification.findMany(byId),
    EventOutbox: await db.eventOutbox.findMany(byId),
    WebhookDelivery: await db.webhookDelivery.findMany(byId),
    WebhookAttempt: await db.webhookAttempt.findMany(byId),
  };
}

export function cli(from: string, to: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/db-copy.ts", "--from", from, "--to", to],
    {
      cwd: root,
      encoding: "utf8",
      timeout: 120_000,
    },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A SQLite file copy of the source (VACUUM INTO: the WAL's committed pages included), for a test to spoil. */
export function snapshot(file: string, dir: string, name: string): string {
  const out = path.join(dir, name);
  const db = new Database(file);
  db.prepare("VACUUM INTO ?").run(out);
  db.close();
  return out;
}
