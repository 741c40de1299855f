import { afterEach, describe, expect, it, vi } from "vitest";
import { WriteConflict } from "../../lib/db/write-conflict";
import { findSessionOwner } from "../../lib/db/sessions";
import { submitExternalAsk } from "../../lib/external/submit-external-ask";
import { submitExternalPlan } from "../../lib/external/submit-external-plan";
import { readEvents } from "../../lib/db/session-log/read-events";
import { freshDb, type TestDb } from "../helpers/db";

// A collision inside the transaction that makes an outside agent's session and its first plan (SQLite busy, a
// PostgreSQL deadlock): both roll back together, so the submission must try again, not take the session for
// another token's.
const collide = vi.hoisted(() => ({ times: 0, creates: 0 }));
vi.mock("../../lib/review/submit-plan", async (original) => {
  const real = await original<typeof import("../../lib/review/submit-plan")>();
  return {
    ...real,
    submitPlan: async (...args: Parameters<typeof real.submitPlan>) => {
      if (collide.times > 0) {
        collide.times--;
        throw new WriteConflict("a write collided");
      }
      return real.submitPlan(...args);
    },
  };
});

// The same for a session an ask makes (Codex's or Claude Code's first permission ask comes before any plan).
vi.mock("../../lib/session/create-session", async (original) => {
  const real = await original<typeof import("../../lib/session/create-session")>();
  return {
    ...real,
    createSession: async (...args: Parameters<typeof real.createSession>) => {
      if (collide.creates > 0) {
        collide.creates--;
        throw new WriteConflict("a write collided");
      }
      return real.createSession(...args);
    },
  };
});

let t: TestDb | undefined;
afterEach(async () => {
  collide.times = 0;
  collide.creates = 0;
  await t?.close();
});

const submit = (db: TestDb["db"], externalId: string) =>
  submitExternalPlan(db, {
    agent: "claude-code",
    externalId,
    workspace: "/home/ada/shop",
    plan: "# Add a filter\n\n1. Add `filter` to src/todo.ts\n",
    planFilePath: "claude-code-plan.md",
    starter: { startedBy: null, agentTokenId: "tok_ada" },
  });

describe("an outside agent's first plan when its write collides", () => {
  it("is tried again: one session bound to the token, one session.created, the review pending", async () => {
    t = freshDb();
    collide.times = 2;
    const done = await submit(t.db, "cc-1");
    expect(done.version).toBe(1);
    expect(collide.times).toBe(0);
    expect((await findSessionOwner(t.db, done.sessionId))?.agentTokenId).toBe("tok_ada");
    const events = await readEvents(t.db, done.sessionId);
    expect(events.filter((e) => e.type === "session.created")).toHaveLength(1);
    expect(events.filter((e) => e.type === "review.asked")).toHaveLength(1);
  });

  it("that never stops colliding answers with the conflict, never 'another token's session', and leaves no session", async () => {
    t = freshDb();
    collide.times = 100;
    const error = await submit(t.db, "cc-2").then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WriteConflict);
    expect(await t.db.session.count()).toBe(0);
  });
});

describe("an outside agent's first ask when making its session collides", () => {
  const ask = (db: TestDb["db"]) =>
    submitExternalAsk(db, {
      agent: "claude-code",
      externalId: "cc-ask",
      workspace: "/home/ada/shop",
      tool: "Bash",
      input: { command: "rm -rf build" },
      starter: { startedBy: null, agentTokenId: "tok_ada" },
    });

  it("is tried again and waits for a person in a session bound to the token", async () => {
    t = freshDb();
    collide.creates = 2;
    const outcome = await ask(t.db);
    expect(outcome.status).toBe("pending");
    expect(collide.creates).toBe(0);
    const [session] = await t.db.session.findMany({ select: { id: true } });
    expect((await findSessionOwner(t.db, session!.id))?.agentTokenId).toBe("tok_ada");
  });

  it("that never stops colliding answers with the conflict, never 'another token's session', and makes nothing", async () => {
    t = freshDb();
    collide.creates = 100;
    const error = await ask(t.db).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WriteConflict);
    expect(await t.db.session.count()).toBe(0);
    expect(await t.db.permissionRequest.count()).toBe(0);
  });
});
