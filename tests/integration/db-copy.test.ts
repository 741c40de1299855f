import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { awaitReview, call, settle, startScripted, testApi, trustWorkspaceConfig, type Api } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { freshDatabaseUrl, onPostgres } from "../helpers/db";
import { createDb, type Db } from "../../lib/db/client";
import { copyDatabase } from "../../lib/db/copy-database";
import { TABLES } from "../../lib/db/copy-values";
import { createPerson } from "../../lib/db/people/people";
import { authFor } from "../../lib/auth/better-auth";
import { createLink } from "../../lib/db/people/links";
import { resetEnvCache } from "../../lib/env";
import { foldEvents } from "../../lib/session/log/fold";
import { getSession } from "../../lib/session/get-session";
import { listSessions } from "../../lib/session/list-sessions";
import { setAutoGate } from "../../lib/session/mode-gates";
import { readEvents } from "../../lib/db/session-log/read-events";
import { attemptDelivery } from "../../lib/webhooks/deliver";
import { fanOutOutbox } from "../../lib/webhooks/fan-out";
import { waitFor } from "../helpers/poll";
import { V1, V2, cli, dump, snapshot } from "../helpers/db-copy-kit";

describe.skipIf(!onPostgres)("db:copy: a SQLite database into an empty PostgreSQL one", () => {
  let api: Api;
  let source: Db;
  let sourceUrl = "";
  let dir = "";
  const drops: (() => unknown)[] = [];
  const target = () => {
    const t = freshDatabaseUrl(dir);
    drops.push(t.drop);
    return t.url;
  };

  // Real sessions through the route handlers, on SQLite although this project's testApi() gives PostgreSQL.
  beforeAll(async () => {
    api = testApi();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-copy-"));
    const file = path.join(dir, "source.db");
    fs.copyFileSync(inject("templateDb"), file);
    sourceUrl = `file:${file}`;
    source = createDb(sourceUrl);
    process.env.DATABASE_URL = sourceUrl;
    resetEnvCache();
    (globalThis as { plangateDb?: unknown }).plangateDb = source;
    api = { ...api, t: { ...api.t, db: source, url: sourceUrl, file, provider: "sqlite" } };
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        cwd: api.workspace,
        stdio: "pipe",
      });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "init");
    const say = async (id: string, text: string) =>
      expect((await api.call("POST", `/api/sessions/${id}/messages`, { text })).status).toBe(202);

    // A plan sent back with line comments, revised, approved, executed and verified (modes, plans, reviews, verification).
    const planned = await startScripted(
      api,
      [
        exitWith(V1),
        exitWith(V2),
        call("write", { path: "src/todo.ts", content: "export const cache = new Map();\n" }),
        { text: "finished" },
      ],
      { mode: "plan", title: "Cache plan" },
    );
    await say(planned, "plan a zanzibar cache");
    const first = await awaitReview(api, planned);
    const rejected = await api.call("POST", `/api/reviews/${first}/decision`, {
      decision: "reject",
      feedback: "No Redis.",
      comments: [{ lineStart: 4, lineEnd: 4, body: "Keep it in memory." }],
    });
    expect(rejected.status).toBe(200);
    const second = await awaitReview(api, planned);
    expect(
      (await api.call("POST", `/api/reviews/${second}/decision`, { decision: "approve", mode: "acceptEdits" })).status,
    ).toBe(200);
    await waitFor(
      "the verification",
      async () => (await api.call("GET", `/api/sessions/${planned}/verify`)).body.verifications[0],
      30_000,
    );
    expect((await api.call("POST", `/api/sessions/${planned}/fork`, { atSeq: 4 })).status).toBe(201);

    // An ask answered "always" (a permission request and a grant).
    const outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-outside-")));
    fs.writeFileSync(path.join(outside, "a.txt"), "A");
    const asker = await startScripted(api, [call("read", { path: `${outside}/a.txt` }), { text: "read it" }], {
      title: "Outside reader",
    });
    await say(asker, "read the outside file");
    const ask = await waitFor(
      "the ask",
      async () =>
        (await api.call("GET", `/api/permissions?status=pending&sessionId=${asker}`)).body.permissions[0] as
          | { id: string }
          | undefined,
    );
    expect(
      (await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "always", scope: "session" })).status,
    ).toBe(200);

    // A subagent (a child session) and a team whose teammate's plan the lead approves in the mailbox.
    const parent = await startScripted(api, [
      call("task", { agent: "explore", prompt: "look around", script: [{ text: "child summary" }] }),
      { text: "parent done" },
    ]);
    await say(parent, "delegate");
    const lead = await startScripted(api, []);
    const team = await api.call("POST", "/api/teams", { sessionId: lead, name: "Copy team" });
    expect(team.status).toBe(201);
    const teamId = team.body.team.id as string;
    const mate = await api.call("POST", `/api/teams/${teamId}/teammates`, {
      name: "alice",
      task: "plan the work",
      requirePlanApproval: true,
      script: [exitWith("# Alice\n\n1. work\n"), { text: "alice done" }],
    });
    expect(mate.status).toBe(201);
    const request = await waitFor(
      "alice's request",
      async () =>
        ((await api.call("GET", `/api/teams/${teamId}/mailbox?status=pending`)).body.messages as { id: string }[])[0],
    );
    expect((await api.call("POST", `/api/teams/${teamId}/mailbox/${request.id}/reply`, { approve: true })).status).toBe(
      200,
    );
    await setAutoGate(source, false);

    // A person's trust in the workspace's config.
    fs.mkdirSync(path.join(api.workspace, ".plangate"), { recursive: true });
    fs.writeFileSync(
      path.join(api.workspace, ".plangate/config.json"),
      JSON.stringify({ permission: { bash: { "npm test": "allow" } } }),
    );
    await trustWorkspaceConfig(api, api.workspace);

    // People: an owner signed in with a password and a passkey, a token they made, an open link, their acts' audit.
    const owner = await createPerson(source, {
      email: "owner@example.com",
      name: "Owner",
      password: "a long password!",
      memberships: [{ root: "/", role: "owner" }],
    });
    const signIn = await authFor(source).api.signInEmail({
      body: { email: "owner@example.com", password: "a long password!" },
      headers: new Headers({ host: "localhost:3000" }),
      asResponse: true,
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect((await api.call("POST", "/api/tokens", { name: "ci", scope: "reviewer" }, { cookie })).status).toBe(201);
    await createLink(source, { purpose: "invite", email: "new@example.com", role: "viewer", ttlMs: 60_000 });
    expect((await api.call("POST", `/api/teams/${teamId}/leads`, { email: "owner@example.com" })).status).toBe(201);
    // Issue 27: a review policy, and an approval a plan review gathered.
    const policy = { workspace: api.workspace, approvals: 2, allowSelfApproval: false, paths: [], teams: {} };
    expect((await api.call("PUT", "/api/policies", policy)).status).toBe(200);
    const [anyReview] = await source.review.findMany({ take: 1 });
    if (!anyReview) throw new Error("no review to approve");
    await source.reviewApproval.create({
      data: {
        reviewId: anyReview.id,
        userId: owner.id,
        name: "Owner",
        email: "owner@example.com",
        credential: "session",
      },
    });
    await source.authVerification.create({
      data: { id: "ver_1", identifier: "owner@example.com", value: "v", expiresAt: new Date(Date.now() + 60_000) },
    });
    await source.passkey.create({
      data: {
        id: "pk_1",
        userId: owner.id,
        publicKey: "cHVibGlj",
        credentialID: "cred-1",
        counter: 0,
        deviceType: "singleDevice",
        backedUp: false,
        transports: "internal",
      },
    });
    // Issue 46: a person's choices, a device taking push, a linked Slack user, a signed request seen, a notice sent.
    await source.notifyPreference.create({
      data: {
        userId: owner.id,
        email: false,
        slack: true,
        push: true,
        ntfyTopic: "owner-plans",
        events: '["waiting"]',
      },
    });
    await source.pushSubscription.create({
      data: {
        id: "psh_1",
        userId: owner.id,
        endpoint: "https://fcm.googleapis.com/fcm/send/x",
        p256dh: "k",
        auth: "a",
      },
    });
    await source.slackLink.create({ data: { slackUser: "T1:U1", userId: owner.id, linkedAt: new Date() } });
    await source.seenRequest.create({ data: { key: "slack:v0=abc", expiresAt: new Date(Date.now() + 60_000) } });
    await source.notice.create({
      data: {
        id: "ntc_1",
        key: `${anyReview.id}|${owner.id}|email|waiting`,
        itemId: anyReview.id,
        sessionId: anyReview.sessionId,
        userId: owner.id,
        channel: "email",
        kind: "waiting",
        status: "sent",
        address: "owner@example.com",
        body: "{}",
        attempts: 1,
        ref: "<ntc_1@plangate>",
        finishedAt: new Date(),
      },
    });

    // A webhook delivery with one failed attempt (nothing listens on port 1), and outbox rows not yet fanned out.
    Object.assign(process.env, {
      PLANGATE_WEBHOOKS: "http://127.0.0.1:1/hook",
      PLANGATE_WEBHOOK_SECRET: "copy-test-secret-0123",
    });
    resetEnvCache();
    const [delivery] = (await fanOutOutbox(source, 1)).due;
    expect(await attemptDelivery(source, delivery!, { backoffMs: [60_000], timeoutMs: 5_000 })).toMatchObject({
      status: "retry",
    });
    delete process.env.PLANGATE_WEBHOOKS;
    delete process.env.PLANGATE_WEBHOOK_SECRET;
    resetEnvCache();

    for (const s of await source.session.findMany({ select: { id: true } })) await settle(api, s.id);
    await new Promise((r) => setTimeout(r, 200));
    for (const s of await source.session.findMany({ select: { id: true } })) await settle(api, s.id);
  }, 180_000);

  afterAll(async () => {
    await source?.$disconnect();
    await api?.close();
    for (const drop of drops) await drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("copies every table exactly, the folds agree on both sides, and the CLI refuses a target that is not empty", async () => {
    const to = target();
    const report = await copyDatabase({ from: sourceUrl, to, batchSize: 7 });
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.tables.map((t) => t.table)).toEqual(TABLES.map((t) => t.name));
    for (const t of report.tables) {
      expect([t.table, t.source > 0, t.target, t.sameRows]).toEqual([t.table, true, t.source, true]);
    }
    const sessions = await source.session.findMany({ select: { id: true } });
    expect(report.sessions).toBe(sessions.length);
    expect(sessions.length).toBeGreaterThanOrEqual(7);

    const copy = createDb(to);
    try {
      expect(await dump(copy)).toEqual(await dump(source));
      const kinds = await copy.session.findMany({
        where: { OR: [{ parentId: { not: null } }, { forkedFromId: { not: null } }, { teamId: { not: null } }] },
      });
      expect(kinds.filter((s) => s.parentId).length).toBe(1);
      expect(kinds.filter((s) => s.forkedFromId).length).toBe(1);
      expect(kinds.filter((s) => s.teamId).length).toBe(2);
      for (const { id } of sessions) {
        const [a, b] = [await readEvents(source, id), await readEvents(copy, id)];
        expect(b).toEqual(a);
        expect(foldEvents(b)).toEqual(foldEvents(a));
        expect((await getSession(copy, id)).state).toEqual(foldEvents(b));
      }

      // A second copy into the same (now filled) database is refused and changes nothing.
      const before = await dump(copy);
      const again = cli(sourceUrl, to);
      expect(again.status, again.stdout + again.stderr).toBe(2);
      expect(again.stderr).toMatch(/is not empty \(Team: 1, Session: \d+/);
      expect(await dump(copy)).toEqual(before);
    } finally {
      await copy.$disconnect();
    }
  });

  it("the CLI migrates a brand-new PostgreSQL database, copies, verifies and exits 0", async () => {
    const admin = async (sqlText: string) => {
      const client = new pg.Client({ connectionString: inject("pgUrl") });
      await client.connect();
      await client.query(sqlText).finally(() => client.end());
    };
    const name = `copy_${process.pid}_${Date.now()}`;
    await admin(`CREATE DATABASE "${name}"`);
    drops.push(() => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    const url = new URL(inject("pgUrl"));
    url.pathname = `/${name}`;
    const r = cli(sourceUrl, url.toString());
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/SessionEvent\s+(\d+)\s+\1\s+ok/);
    expect(r.stdout).toContain("copied and verified");
    const copy = createDb(url.toString());
    try {
      expect(await dump(copy)).toEqual(await dump(source));
    } finally {
      await copy.$disconnect();
    }
  });

  it("a search on PostgreSQL finds a word of a copied message (the index is rebuilt from the logs)", async () => {
    const to = target();
    expect((await copyDatabase({ from: sourceUrl, to })).ok).toBe(true);
    const copy = createDb(to);
    try {
      const planned = await copy.session.findFirstOrThrow({ where: { title: "Cache plan" } });
      const found = await listSessions(copy, { q: "zanzibar" });
      expect(found.sessions.map((s) => s.id)).toContain(planned.id);
      expect(
        (await listSessions(copy, { q: "zanzibar" })).sessions.every(
          (s) => s.id === planned.id || s.forkedFromId === planned.id,
        ),
      ).toBe(true);
    } finally {
      await copy.$disconnect();
    }
  });

  it("a corrupt source (an event that is not JSON, a stored state that is not the fold) fails verification, exits non-zero and leaves the target empty", async () => {
    const sid = (await source.session.findFirstOrThrow({ where: { title: "Cache plan" } })).id;
    const spoil = (name: string, sqlText: string) => {
      const copy = snapshot(path.join(dir, "source.db"), dir, name);
      const db = new Database(copy);
      db.prepare(sqlText).run(sid);
      db.close();
      return `file:${copy}`;
    };
    const notJson = spoil(
      "not-json.db",
      `UPDATE "SessionEvent" SET "payload" = '{"text": "cut off' WHERE "sessionId" = ? AND "seq" = 3`,
    );
    const wrongState = spoil(
      "wrong-state.db",
      `UPDATE "Session" SET "state" = json_set("state", '$.mode', 'bypassPermissions') WHERE "id" = ?`,
    );

    const to = target();
    const report = await copyDatabase({ from: notJson, to, batchSize: 5 });
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([expect.stringMatching(new RegExp(`^session ${sid}: unreadable JSON`))]);
    const r = cli(wrongState, to);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(`session ${sid}: the stored state (Session.state) is not the fold of its log`);
    expect(r.stderr).toContain("rolled back");
    const copy = createDb(to);
    try {
      expect(await copy.session.count()).toBe(0);
      expect(await copy.sessionEvent.count()).toBe(0);
    } finally {
      await copy.$disconnect();
    }
  });
});
