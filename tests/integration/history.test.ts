import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { exitWith, PLAN_V1, PLAN_V2 } from "../helpers/plan-kit";
import { sql } from "../../lib/db/sql";
import { appendEvents } from "../../lib/session/append-events";
import { foldEvents, type SessionState } from "../../lib/session/log/fold";
import { getSession } from "../../lib/session/get-session";
import { sessionHistory } from "../../lib/session/session-history";
import { readEvents } from "../../lib/db/session-log/read-events";
import { waitFor } from "../helpers/poll";

let api: Api;
afterEach(async () => {
  await api?.close();
});

const list = async (query: string) =>
  (await api.call("GET", `/api/sessions?${query}`)).body as {
    sessions: { id: string; title: string; planStatus: string | null }[];
    nextCursor: string | null;
  };

describe("session history", () => {
  it("lists with filters (status, mode, workspace, team), full-text search over titles, messages and plans, and cursor pages", async () => {
    api = testApi();
    const other = path.join(path.dirname(api.workspace), "other");
    fs.mkdirSync(other);
    const titled = async (title: string, extra: Record<string, unknown> = {}) =>
      startScripted(api, [], { title, ...extra });
    const a = await titled("Add pagination to todos");
    const b = await titled("Fix the flaky build", { mode: "plan" });
    const c = await titled("Refactor storage", { workspace: other });
    await appendEvents(api.t.db, c, [{ type: "message.user", payload: { text: "use the sqlite WAL journal" } }]);
    const d = await startScripted(api, [exitWith("# Plan\n\n1. Introduce a cursor-based paginator\n")], {
      title: "Plain title",
      mode: "plan",
    });
    await api.call("POST", `/api/sessions/${d}/messages`, { text: "go" });
    expect((await settle(api, d)).status).toBe("awaiting_review");
    await api.call("POST", "/api/teams", { sessionId: a });
    const teamId = (await api.call("GET", `/api/sessions/${a}`)).body.session.teamId as string;

    const ids = async (query: string) => (await list(query)).sessions.map((s) => s.id).sort();
    expect(await ids("status=awaiting_review")).toEqual([d]);
    expect(await ids("mode=plan")).toEqual([b, d].sort());
    expect(await ids(`workspace=${encodeURIComponent(fs.realpathSync(other))}`)).toEqual([c]);
    expect(await ids(`team=${teamId}`)).toEqual([a]);
    expect(await ids("q=pagination")).toEqual([a]);
    expect(await ids("q=journal")).toEqual([c]);
    expect(await ids("q=paginator")).toEqual([d]);
    expect(await ids("q=paginat")).toEqual([a, d].sort());
    expect(await ids("q=sqlite%20WAL")).toEqual([c]);
    expect(await ids("q=sqlite%20pagination")).toEqual([]);
    expect(await ids("q=paginat&mode=plan")).toEqual([d]);
    expect((await list("q=paginator")).sessions[0]?.planStatus).toBe("submitted");
    expect((await api.call("GET", "/api/sessions?mode=yolo")).status).toBe(400);

    // Pages: every session once, newest activity first.
    const all = (await list("limit=50")).sessions.map((s) => s.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.sessions.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(all).toHaveLength(4);
    expect(all[0]).toBe(a);

    // A plan edited at approval is found by the words the person added.
    const review = (await api.call("GET", `/api/reviews?status=pending&sessionId=${d}`)).body.reviews[0].id as string;
    const edited = await api.call("POST", `/api/reviews/${review}/decision`, {
      decision: "approve",
      plan: "# Plan\n\n1. Introduce a cursor-based paginator\n2. Measure it on quokkas\n",
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await settle(api, d);
    expect(await ids("q=quokka")).toEqual([d]);
    expect(await ids("q=quokka%20paginator")).toEqual([d]);
  });

  it("replay: folding the log up to any recorded point equals the live state at that time", async () => {
    api = testApi();
    const id = await startScripted(api, [
      call("enter_plan_mode"),
      exitWith(PLAN_V1),
      exitWith(PLAN_V2),
      call("write", { path: "x.txt", content: "x\n" }),
      { text: "done" },
    ]);
    const live: { seq: number; state: unknown }[] = [];
    const record = async () => {
      const { state } = await getSession(api.t.db, id);
      live.push({
        seq: state.lastSeq,
        state: {
          mode: state.mode,
          plan: state.plan,
          pendingReview: state.pendingReview,
          status: state.status,
          queuedMode: state.queuedMode,
        },
      });
    };
    await record();
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan it" });
    await settle(api, id);
    await record();
    const review = async () =>
      (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id as string;
    await api.call("POST", `/api/reviews/${await review()}/decision`, { decision: "reject", feedback: "more" });
    await settle(api, id);
    await record();
    await api.call("POST", `/api/reviews/${await review()}/decision`, { decision: "approve", mode: "acceptEdits" });
    await settle(api, id);
    // The check of the work against the approved plan is appended in the background after the turn ends.
    await waitFor("the verification", async () =>
      (await readEvents(api.t.db, id)).some((e) => e.type === "verification.completed"),
    );
    await record();
    expect(live.map((l) => (l.state as { status: string }).status)).toEqual([
      "idle",
      "awaiting_review",
      "awaiting_review",
      "idle",
    ]);
    for (const { seq, state } of live) {
      const res = await api.call("GET", `/api/sessions/${id}/state?at=${seq}`);
      expect(res.status).toBe(200);
      const { mode, plan, pendingReview, status, queuedMode } = res.body.state;
      expect({ mode, plan, pendingReview, status, queuedMode }).toEqual(state);
    }
    // Every prefix folds without error and the whole log folds to the projection.
    const events = await readEvents(api.t.db, id);
    expect(foldEvents(events)).toEqual((await getSession(api.t.db, id)).state);
    expect((await api.call("GET", `/api/sessions/${id}/state?at=0`)).status).toBe(400);
    expect((await api.call("GET", `/api/sessions/${id}/state?at=${events.length + 1}`)).status).toBe(400);

    const history = (await api.call("GET", `/api/sessions/${id}/history`)).body.history;
    expect(
      history.plans.map(
        (p: { version: number; decision: string | null; decidedBy: string | null; feedback: string | null }) => [
          p.version,
          p.decision,
          p.decidedBy,
          p.feedback,
        ],
      ),
    ).toEqual([
      [2, "approve", "operator", null],
      [1, "reject", "operator", "more"],
    ]);
    expect(history.plansNext).toBeNull();
    expect(history.plans[0].changes.filter((r: { kind: string }) => r.kind !== "same")).toEqual([
      { left: null, right: "3. Add a rollback step.", kind: "added" },
    ]);
    expect(
      history.modes.map((m: { from: string; to: string; cause: string }) => `${m.from}>${m.to}:${m.cause}`),
    ).toEqual(["default>plan:tool", "plan>acceptEdits:review"]);
    expect(history.totals.modes).toBe(2);
    // The session page reads only the latest rows (a long session's page reads no more), in order, with the totals.
    const latest = await sessionHistory(api.t.db, id, { recent: 1 });
    expect(latest.modes.map((m) => `${m.from}>${m.to}`)).toEqual(["plan>acceptEdits"]);
    expect(latest.totals).toEqual(history.totals);
    expect(latest.permissions).toEqual(history.permissions.slice(-1));
    // Issue 43: plan versions too (the heaviest rows): the latest only, each still diffed against the one before.
    const onePlan = await sessionHistory(api.t.db, id, { plansLimit: 1 });
    expect(onePlan.plans.map((p) => p.version)).toEqual([2]);
    expect(onePlan.plans[0]?.changes).toEqual(history.plans[0].changes);
    expect(onePlan.totals.plans).toBe(2);
  });

  it("tokens: a scripted session reports none; reported tokens are summed into History and both exports", async () => {
    api = testApi();
    const id = await startScripted(api, [], { title: "Tokens" });
    const exports = async () =>
      [
        (await api.call("GET", `/api/sessions/${id}/export?format=json`)).body,
        (await api.call("GET", `/api/sessions/${id}/export?format=md`)).body as string,
      ] as const;
    expect((await sessionHistory(api.t.db, id)).usage).toBeNull();
    const [noneJson, noneMd] = await exports();
    expect(noneJson.usage).toBeNull();
    expect(noneMd).not.toContain("- Tokens:");

    await appendEvents(api.t.db, id, [
      { type: "turn.started", payload: { turnId: "t1" } },
      { type: "message.assistant", payload: { text: "one", usage: { input: 1000, output: 50, cacheRead: 900 } } },
      { type: "message.assistant", payload: { text: "two", usage: { input: 234, output: 6 } } },
      {
        type: "turn.ended",
        payload: { turnId: "t1", reason: "done", usage: { input: 1234, output: 56, cacheRead: 900 } },
      },
    ]);
    const want = { input: 1234, output: 56, cacheRead: 900 };
    expect((await api.call("GET", `/api/sessions/${id}/history`)).body.history.usage).toEqual(want);
    expect((await sessionHistory(api.t.db, id, { recent: 1 })).usage).toEqual(want);
    const [json, md] = await exports();
    expect(json.usage).toEqual(want);
    expect(md).toContain("- Tokens: 1,234 in / 56 out (900 cached)");
    expect(md).toContain("Turn ended: done · 1,234 in / 56 out tokens (900 cached)");
  });

  it("export as JSON re-imports to the same fold; Markdown reads as a transcript with plans and decisions; fork links both ways", async () => {
    api = testApi();
    const id = await startScripted(
      api,
      [exitWith(PLAN_V1), call("read", { path: "README.md" }), { text: "All **done**." }],
      { mode: "plan", title: "Exported session" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan the export" });
    await settle(api, id);
    const review = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id as string;
    await api.call("POST", `/api/reviews/${review}/decision`, { decision: "approve", feedback: "ship it" });
    await settle(api, id);
    // The work is verified when the turn ends; the export below must see the finished log.
    await waitFor(
      "the verification",
      async () => (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications.length > 0,
    );

    const exported = (await api.call("GET", `/api/sessions/${id}/export?format=json`)).body;
    expect(exported.format).toBe("plangate.session.v1");
    const imported = await api.call("POST", "/api/sessions/import", exported);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const copy = imported.body.session.id as string;
    expect(copy).not.toBe(id);
    // The import adds one event of its own at the end: the notice of who imported the file (issue 41).
    const copied = await readEvents(api.t.db, copy);
    expect(copied.at(-1)).toMatchObject({ type: "notice", payload: { text: expect.stringMatching(/^Imported from/) } });
    // The same fold, but for what the file may not carry (issue 41): its plan is the copy's own (a fresh slug, id and
    // file), and the file's approval is its claim, which releases nothing.
    const own = ({ planId: _i, planSlug: _s, planPath: _p, planApproved: _a, ...rest }: SessionState) => rest;
    const copiedFold = foldEvents(copied.slice(0, -1));
    const sourceFold = foldEvents(await readEvents(api.t.db, id));
    expect(own(copiedFold)).toEqual(own(sourceFold));
    expect(copiedFold.planSlug).not.toBe(sourceFold.planSlug);
    expect(copiedFold.planId).not.toBe(sourceFold.planId);
    expect(sourceFold.planApproved).toBe(true);
    expect(copiedFold.planApproved).toBeUndefined();
    const copyState = (await getSession(api.t.db, copy)).state;
    expect(own({ ...copyState, lastSeq: copyState.lastSeq - 1 })).toEqual(own((await getSession(api.t.db, id)).state));
    expect((await list("q=export")).sessions.map((s) => s.id).sort()).toEqual([id, copy].sort());

    const bad = structuredClone(exported);
    bad.events[2].seq = 7;
    expect((await api.call("POST", "/api/sessions/import", bad)).body.error.message).toMatch(
      /events\.2\.seq: expected 3/,
    );
    const badType = structuredClone(exported);
    badType.events[1].payload = { nope: true };
    expect((await api.call("POST", "/api/sessions/import", badType)).status).toBe(400);

    const outside = structuredClone(exported);
    outside.session.workspace = "/etc";
    const refused = await api.call("POST", "/api/sessions/import", outside);
    expect([refused.status, refused.body.error.message]).toEqual([
      400,
      expect.stringMatching(/outside the allowed roots/),
    ]);
    // A log that ends inside a turn arrives idle, its turn closed: an import runs nothing it carries.
    const open = structuredClone(exported);
    open.events = open.events.slice(0, 4);
    expect(open.events.map((e: { type: string }) => e.type)).toContain("turn.started");
    const cut = await api.call("POST", "/api/sessions/import", open);
    expect(cut.status).toBe(201);
    expect(cut.body.state).toMatchObject({ status: "idle" });

    const md = (await api.call("GET", `/api/sessions/${id}/export?format=md`)).body as string;
    expect(md).toContain("# Exported session");
    expect(md).toContain("**User** (#");
    expect(md).toContain("plan the export");
    expect(md).toContain("All **done**.");
    expect(md).toMatch(/`read` README\.md → ok/);
    expect(md).toMatch(/### Version 1: approve by operator at \d{4}-/);
    expect(md).toContain(PLAN_V1.trim());

    const fork = await api.call("POST", `/api/sessions/${id}/fork`, { atSeq: 4 });
    expect(fork.status).toBe(201);
    const forkId = fork.body.session.id as string;
    const related = async (of: string) =>
      (await api.call("GET", `/api/sessions/${of}/history`)).body.history.related.map(
        (r: { id: string; relation: string }) => [r.id, r.relation],
      );
    expect(await related(forkId)).toEqual([[id, "forked from"]]);
    expect(await related(id)).toEqual([[forkId, "fork"]]);
    // The fork is found by its own title and by the messages it copied.
    expect((await list("q=exported%20fork")).sessions.map((s) => s.id)).toEqual([forkId]);
    expect((await list("q=plan%20the%20export")).sessions.map((s) => s.id)).toContain(forkId);
  });

  it("delete asks for the id, refuses a running session, and removes the log, plans, reviews and search entries", async () => {
    api = testApi();
    const id = await startScripted(api, [exitWith(PLAN_V1)], { mode: "plan", title: "Doomed session" });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan" });
    await settle(api, id);
    const del = (body: unknown) => api.call("DELETE", `/api/sessions/${id}`, body);
    expect((await del({ confirm: "ses_other" })).status).toBe(400);
    expect((await del({})).status).toBe(400);
    expect((await list("q=doomed")).sessions).toHaveLength(1);
    // The review keeps a turn open: deleting it would strand the decision.
    expect((await del({ confirm: id })).status).toBe(409);
    await api.call(
      "POST",
      `/api/reviews/${(await api.call("GET", `/api/reviews?sessionId=${id}`)).body.reviews[0].id}/decision`,
      { decision: "abandon" },
    );
    await settle(api, id);
    expect((await del({ confirm: id })).body).toEqual({ deleted: id });
    expect((await api.call("GET", `/api/sessions/${id}`)).status).toBe(404);
    expect(await api.t.db.sessionEvent.count({ where: { sessionId: id } })).toBe(0);
    expect(await api.t.db.plan.count({ where: { sessionId: id } })).toBe(0);
    expect(await api.t.db.review.count({ where: { sessionId: id } })).toBe(0);
    expect((await list("q=doomed")).sessions).toHaveLength(0);
    if (api.t.provider === "postgres") {
      expect(
        await (await sql(api.t.db)).query('SELECT "sessionId" FROM "SessionSearch" WHERE "sessionId" = ?', [id]),
      ).toEqual([]);
    }
  });
});
