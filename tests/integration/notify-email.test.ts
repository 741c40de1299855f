import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { resetEnvCache } from "../../lib/env";
import { closeEmailTransports } from "../../lib/notify/deliver-notice";
import { startWebhooks, type WebhookRunner } from "../../lib/webhooks/runner";
import { awaitReview, call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { onPostgres } from "../helpers/db";
import { exitWith } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";
import { waitFor } from "../helpers/poll";
import { type Received, type SmtpReceiver, startSmtpReceiver } from "../helpers/smtp-receiver";

// Issue 46, on both engines, against a real SMTP server: who is told that an item waits is exactly who can act on
// it (the same standing the desk and the decision route go by), reminders and escalations come after the policy's
// delays on a clock the test moves, a decision withdraws what has not gone out, and each notice goes out once.
const ENV = {
  PLANGATE_SMTP_FROM: "Plangate <plangate@example.test>",
  PLANGATE_PUBLIC_URL: "https://desk.example.test",
};
let api: Api;
let smtp: SmtpReceiver;
// The runner's clock runs ahead of real time by what a test moves it on.
let ahead = 0;
const runners: WebhookRunner[] = [];
const closers: (() => Promise<unknown>)[] = [];

function runner(db = api.t.db, backoffMs = [100, 200]) {
  const r = startWebhooks(db, {
    sweepMs: 250,
    now: () => new Date(Date.now() + ahead),
    notices: { backoffMs, timeoutMs: 5_000 },
  });
  runners.push(r);
  return r;
}

beforeEach(async () => {
  smtp = await startSmtpReceiver();
  api = testApi({ env: { ...ENV, PLANGATE_SMTP_URL: smtp.url } });
  ahead = 0;
});
afterEach(async () => {
  for (const r of runners.splice(0)) {
    r.stop();
    await r.settled();
  }
  for (const c of closers.splice(0)) await c();
  closeEmailTransports();
  await smtp.close();
  await api.close();
  for (const k of [...Object.keys(ENV), "PLANGATE_SMTP_URL"]) delete process.env[k];
  resetEnvCache();
});

const { person, setPolicy } = policyKit(() => api);
const PLAN = "# Add a ping route\n\n1. Change src/app.ts\n";

/** A plan in plan mode, started (and asked for) by `as` (the operator when left out), waiting on its review. */
async function pendingPlan(as?: { cookie: string }, title = "Ping route") {
  const res = await api.call(
    "POST",
    "/api/sessions",
    { title, workspace: api.workspace, model: "scripted", script: [exitWith(PLAN), { text: "done" }], mode: "plan" },
    as,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const sessionId = res.body.session.id as string;
  expect((await api.call("POST", `/api/sessions/${sessionId}/messages`, { text: "plan it" }, as)).status).toBe(202);
  return { sessionId, reviewId: await awaitReview(api, sessionId) };
}

/** Every notice made so far has finished (sent, failed or withdrawn): nothing more is on its way. */
async function drained(r: WebhookRunner) {
  await waitFor("the outbox and every notice finished", async () => {
    await r.sweep();
    await r.settled();
    const outbox = await api.t.db.eventOutbox.count();
    const pending = await api.t.db.notice.count({ where: { status: "pending" } });
    return outbox === 0 && pending === 0;
  });
}

const to = (msgs: Received[]) => msgs.flatMap((m) => m.to).sort();
const subjects = (msgs: Received[]) => [...new Set(msgs.map((m) => m.mail.subject))].sort();

describe("email notices", () => {
  it("a plan under a two-approval policy with a path owner reaches exactly those whose approval counts, then its decision", async () => {
    const r = runner();
    await setPolicy({
      approvals: 2,
      allowSelfApproval: false,
      paths: [{ patterns: ["src/**"], reviewers: ["dee@example.com"], approvals: 1 }],
    });
    const sam = await person("reviewer", "sam@example.com");
    const ada = await person("reviewer", "ada@example.com");
    const dee = await person("reviewer", "dee@example.com");
    await person("owner", "olga@example.com");
    await person("viewer", "vic@example.com");
    await person("member", "mel@example.com");
    const { sessionId, reviewId } = await pendingPlan(sam);
    await drained(r);
    // Sam started it (self-approval is off), Vic only reads, Mel may not decide: none of them is told.
    expect(to(smtp.received)).toEqual(["ada@example.com", "dee@example.com", "olga@example.com"]);
    const first = smtp.received[0]?.mail;
    expect(first?.subject).toBe("A plan waits for you: Ping route");
    expect(first?.from?.text).toBe('"Plangate" <plangate@example.test>');
    expect(first?.text).toContain("A plan from sam waits for your decision.");
    expect(first?.text).toMatch(/Still needed: .*2 approvals/);
    expect(first?.text).toContain(`https://desk.example.test/desk?item=${reviewId}`);
    expect(first?.html).toContain(`href="https://desk.example.test/desk?item=${reviewId}"`);
    // One link and nothing in it that decides: the desk asks for the person's own sign-in.
    expect(first?.text?.match(/https?:\/\/\S+/g)).toEqual([`https://desk.example.test/desk?item=${reviewId}`]);
    expect(first?.references).toContain(`<session-${sessionId}@desk.example.test>`);

    expect((await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" }, ada)).status).toBe(
      200,
    );
    expect((await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" }, dee)).status).toBe(
      200,
    );
    await settle(api, sessionId);
    await drained(r);
    const after = smtp.received.slice(3);
    // The work after the approval changed nothing the plan named: only Sam, whose session it is, hears it failed.
    const verification = after.filter((m) => m.mail.subject?.startsWith("Verification failed"));
    expect(to(verification)).toEqual(verification.length ? ["sam@example.com"] : []);
    const decided = after.filter((m) => !verification.includes(m));
    // Those told, and Sam, whose plan it is, hear it was decided, in the same thread.
    const said = JSON.stringify(after.map((m) => [m.to, m.mail.subject]));
    expect(to(decided), said).toEqual(["ada@example.com", "dee@example.com", "olga@example.com", "sam@example.com"]);
    expect(subjects(decided)).toEqual(["Approved by dee: Ping route"]);
    expect(decided.every((m) => m.mail.references?.includes(`<session-${sessionId}@desk.example.test>`))).toBe(true);
  });

  it("a teammate's plan reaches its lead's people and the owners; a permission ask, those who may answer it", async () => {
    const r = runner();
    const leo = await person("reviewer", "leo@example.com");
    await person("reviewer", "ada@example.com");
    await person("owner", "olga@example.com");
    await person("member", "mel@example.com");
    const lead = await api.call(
      "POST",
      "/api/sessions",
      { title: "Lead", workspace: api.workspace, model: "scripted", script: [], mode: "default" },
      leo,
    );
    expect(lead.status).toBe(201);
    const team = await api.call("POST", "/api/teams", { sessionId: lead.body.session.id, name: "Docs team" }, leo);
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const mate = await api.call(
      "POST",
      `/api/teams/${team.body.team.id}/teammates`,
      {
        name: "tilly",
        task: "docs",
        requirePlanApproval: true,
        script: [exitWith("# Docs\n\n1. y\n"), { text: "ok" }],
      },
      leo,
    );
    expect(mate.status, JSON.stringify(mate.body)).toBe(201);
    await waitFor(
      "the teammate's plan waits",
      async () => (await settle(api, mate.body.sessionId)).status === "awaiting_review",
    );
    await drained(r);
    // Ada is a reviewer, but a teammate's plan is its lead's people's (and an owner's) to answer.
    expect(to(smtp.received)).toEqual(["leo@example.com", "olga@example.com"]);

    const asking = await startScripted(api, [call("write", { path: "a.txt", content: "a\n" }), { text: "ok" }], {
      mode: "default",
      title: "Writer",
    });
    await api.call("POST", `/api/sessions/${asking}/messages`, { text: "write it" });
    expect((await settle(api, asking)).status).toBe("awaiting_permission");
    await drained(r);
    const asks = smtp.received.slice(2);
    expect(to(asks)).toEqual(["ada@example.com", "leo@example.com", "olga@example.com"]);
    expect(subjects(asks)).toEqual(["A permission ask waits for you: Writer"]);
    expect(asks[0]?.mail.text).toContain("Still needed: Change a.txt");
  });

  it("reminds after the policy's delay and escalates to the owners after its own, once each, on the test's clock", async () => {
    const r = runner();
    await setPolicy({ notify: { remindAfterMinutes: 10, escalateAfterMinutes: 30 } });
    const ada = await person("reviewer", "ada@example.com");
    await person("owner", "olga@example.com");
    await person("viewer", "vic@example.com");
    const { reviewId } = await pendingPlan();
    await drained(r);
    expect(to(smtp.received)).toEqual(["ada@example.com", "olga@example.com"]);
    const at = async (minutes: number) => {
      ahead = minutes * 60_000;
      await drained(r);
      return smtp.received.length;
    };
    expect(await at(9)).toBe(2);
    expect(await at(11)).toBe(4);
    expect(to(smtp.received.slice(2))).toEqual(["ada@example.com", "olga@example.com"]);
    expect(subjects(smtp.received.slice(2))).toEqual(["Reminder: a plan still waits for you: Ping route"]);
    expect(await at(29)).toBe(4);
    expect(await at(31)).toBe(5);
    expect(to(smtp.received.slice(4))).toEqual(["olga@example.com"]);
    expect(smtp.received[4]?.mail.subject).toBe(`Nobody has acted: a plan waits in ${api.workspace}: Ping route`);
    expect(await at(120)).toBe(5);
    // Acted on: no more follow-ups, and both told hear it was decided.
    expect((await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" }, ada)).status).toBe(
      200,
    );
    await drained(r);
    expect(subjects(smtp.received.slice(5))).toEqual(["Approved by ada: Ping route"]);
    expect(await at(600)).toBe(7);
  });

  it("a decision withdraws a notice that has not gone out: its person never receives the stale ask", async () => {
    // The first refusal leaves Ada's notice waiting a minute for its retry; the decision comes first.
    const r = runner(api.t.db, [60_000]);
    smtp.refuse.add("ada@example.com");
    await person("reviewer", "ada@example.com");
    const olga = await person("owner", "olga@example.com");
    const { reviewId } = await pendingPlan();
    await smtp.waitFor(1);
    await waitFor("Ada's notice refused once", async () => {
      const n = await api.t.db.notice.findFirst({ where: { address: "ada@example.com" } });
      return n?.attempts === 1 && n.status === "pending" ? n : null;
    });
    smtp.refuse.clear();
    expect((await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" }, olga)).status).toBe(
      200,
    );
    await waitFor("the decision's notices", async () => {
      return (await api.t.db.notice.count({ where: { kind: "decided" } })) > 0;
    });
    await r.settled();
    const ada = await api.t.db.notice.findFirst({ where: { address: "ada@example.com", kind: "waiting" } });
    expect(ada?.status).toBe("withdrawn");
    ahead = 3_600_000;
    await drained(r);
    // Olga's ask and her decision; nothing ever reached Ada (she was never told, so no update either).
    expect(to(smtp.received)).toEqual(["olga@example.com", "olga@example.com"]);
  });

  // Several instances share a PostgreSQL database (SQLite serves one process).
  it.runIf(onPostgres)("two instances sweeping one database send each notice once", async () => {
    const other = createDb(api.t.url);
    closers.push(() => other.$disconnect());
    const [a, b] = [runner(), runner(other)];
    await person("reviewer", "ada@example.com");
    await person("owner", "olga@example.com");
    const plans = [await pendingPlan(), await pendingPlan(), await pendingPlan()];
    await Promise.all([drained(a), drained(b)]);
    await Promise.all([a.sweep(), b.sweep()]);
    await Promise.all([a.settled(), b.settled()]);
    expect(smtp.received).toHaveLength(6);
    const items = smtp.received.map((m) => `${m.to[0]} ${m.mail.text?.match(/item=(\S+)/)?.[1]}`);
    expect(new Set(items).size).toBe(6);
    expect(plans.every((p) => items.some((i) => i.endsWith(p.reviewId)))).toBe(true);
  });
});

describe("each person's choices and the policy's timing", () => {
  it("a person who turns email off is not told; bad choices and bad timings are refused and change nothing", async () => {
    const r = runner();
    const ada = await person("reviewer", "ada@example.com");
    await person("owner", "olga@example.com");
    const off = await api.call("PUT", "/api/me/notifications", { email: false, events: ["waiting"] }, ada);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.choices).toEqual({ email: false, slack: true, push: true, ntfyTopic: null, events: ["waiting"] });
    expect(off.body.channels.email).toEqual({ available: true, address: "ada@example.com" });
    await pendingPlan();
    await drained(r);
    expect(to(smtp.received)).toEqual(["olga@example.com"]);
    const log = await api.call("GET", "/api/me/notifications", undefined, ada);
    expect(log.body.log).toEqual([]);

    const bad = await api.call("PUT", "/api/me/notifications", { email: true, events: ["everything"] }, ada);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/events/);
    // The operator's token is nobody's: it has no choices to make.
    expect((await api.call("PUT", "/api/me/notifications", { email: true, events: [] })).status).toBe(403);
    expect((await api.call("GET", "/api/me/notifications", undefined, ada)).body.choices.email).toBe(false);

    const timing = await api.call("PUT", "/api/policies", {
      workspace: api.workspace,
      approvals: 1,
      allowSelfApproval: true,
      paths: [],
      notify: { remindAfterMinutes: 30, escalateAfterMinutes: 10 },
    });
    expect(timing.status).toBe(400);
    expect(JSON.stringify(timing.body)).toMatch(/escalateAfterMinutes/);
    const policy = await api.call("GET", `/api/policies?workspace=${encodeURIComponent(api.workspace)}`);
    expect(policy.body.notify).toEqual({ remindAfterMinutes: 15, escalateAfterMinutes: 60, slackChannel: null });
    // A field left out stays as it is: setting the reminder does not turn the workspace's Slack channel off.
    const put = (notify: Record<string, unknown>) =>
      api.call("PUT", "/api/policies", {
        workspace: api.workspace,
        approvals: 1,
        allowSelfApproval: true,
        paths: [],
        notify,
      });
    expect((await put({ slackChannel: "C0PLANS" })).status).toBe(200);
    expect((await put({ remindAfterMinutes: 10 })).body.notify).toEqual({
      remindAfterMinutes: 10,
      escalateAfterMinutes: 60,
      slackChannel: "C0PLANS",
    });
    // A member cannot set a workspace's timing: it is an owner's setting, like the rest of the policy.
    const mel = await person("member", "mel@example.com");
    const asMember = await api.call(
      "PUT",
      "/api/policies",
      { workspace: api.workspace, approvals: 1, allowSelfApproval: true, paths: [], notify: { remindAfterMinutes: 1 } },
      mel,
    );
    expect(asMember.status).toBe(403);
  });
});
