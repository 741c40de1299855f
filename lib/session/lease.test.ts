import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDb, type TestDb } from "../../tests/helpers/db";
import { sql } from "../db/sql";
import { resetEnvCache } from "../env";
import { createSession } from "./create-session";
import { acquireLease, keepLease, reapLease, releaseLease } from "./lease";

let t: TestDb;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const saved = process.env.PLANGATE_LEASE_TTL_MS;

beforeAll(() => {
  process.env.PLANGATE_LEASE_TTL_MS = "1000";
  resetEnvCache();
  t = freshDb();
});
afterAll(async () => {
  if (saved === undefined) delete process.env.PLANGATE_LEASE_TTL_MS;
  else process.env.PLANGATE_LEASE_TTL_MS = saved;
  resetEnvCache();
  await t.close();
});

const newSession = async () =>
  (
    await createSession(t.db, {
      title: "lease",
      workspace: "/tmp/w",
      agent: "build",
      model: "offline",
      mode: "default",
    })
  ).id;
const owner = async (id: string) =>
  (
    await (
      await sql(t.db)
    ).query<{ leaseOwner: string | null }>('SELECT "leaseOwner" FROM "Session" WHERE "id" = ?', [id])
  )[0]?.leaseOwner;

describe("session leases across instances", () => {
  it("one holder at a time; an expired lease is reaped by exactly one of many instances that saw it", async () => {
    const id = await newSession();
    const dead = await acquireLease(t.db, id);
    expect(dead).not.toBeNull();
    expect(await acquireLease(t.db, id)).toBeNull();
    // Not yet expired: nobody may reap it.
    expect(await reapLease(t.db, id, dead as string)).toBe(false);
    await sleep(1100);
    const reaped = await Promise.all(Array.from({ length: 10 }, () => reapLease(t.db, id, dead as string)));
    expect(reaped.filter(Boolean)).toHaveLength(1);
    expect(await owner(id)).toBeNull();
    const next = await acquireLease(t.db, id);
    expect(next).not.toBeNull();
    // The dead holder's late release does not free its successor's lease.
    await releaseLease(t.db, id, dead as string);
    expect(await owner(id)).toBe(next);
  });

  it("a holder that finds its lease taken over is told, so it stops what it runs; one that keeps it is not", async () => {
    const kept = await newSession();
    const lost = await newSession();
    const keptToken = await acquireLease(t.db, kept);
    const lostToken = await acquireLease(t.db, lost);
    let keptLost = 0;
    let lostLost = 0;
    const stops = [
      keepLease(t.db, kept, keptToken as string, () => keptLost++),
      keepLease(t.db, lost, lostToken as string, () => lostLost++),
    ];
    // Another instance took `lost` over (as after this process stalled past the expiry).
    await (await sql(t.db)).execute('UPDATE "Session" SET "leaseOwner" = ? WHERE "id" = ?', ["srv_other:lse_x", lost]);
    await sleep(1500);
    for (const stop of stops) stop();
    expect(lostLost).toBeGreaterThan(0);
    expect(keptLost).toBe(0);
    // Renewed every third of the lifetime: still held well past one lifetime.
    expect(await owner(kept)).toBe(keptToken);
  });
});
