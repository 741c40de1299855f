import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readEvents } from "../../lib/db/session-log/read-events";
import { eventBody } from "../../lib/webhooks/body";
import { awaitReview, settle, startScripted, testApi, type Api } from "../helpers/api";
import { policyKit } from "../helpers/policy-kit";
import { exitWith, ofType } from "../helpers/plan-kit";

// Issue 27, on both engines: a workspace's review policy decides when a plan is approved enough. Each case is
// the attempt to get a plan through with less than the policy asks, then the check that the agent still waits.
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});

const { person, setPolicy } = policyKit(() => api);

async function pendingPlan(plan = "# Plan\n\n1. Change src/app.ts\n", as?: { cookie: string }) {
  const sessionId = await startScripted(api, [exitWith(plan), { text: "carried on" }], { mode: "plan" });
  const said = await api.call("POST", `/api/sessions/${sessionId}/messages`, { text: "plan it" }, as);
  expect(said.status, JSON.stringify(said.body)).toBe(202);
  return { sessionId, reviewId: await awaitReview(api, sessionId) };
}

const approve = (reviewId: string, as: { cookie: string } | undefined) =>
  api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" }, as);
const status = async (reviewId: string) => (await api.t.db.review.findUnique({ where: { id: reviewId } }))?.status;
const released = async (sessionId: string) =>
  ofType(await readEvents(api.t.db, sessionId), "tool.result").filter((r) => r.tool === "exit_plan_mode" && r.ok);

describe("review policy", () => {
  it("two required approvals: the first leaves it pending (signed, audited), the second releases the agent", async () => {
    await setPolicy({ approvals: 2 });
    const { sessionId, reviewId } = await pendingPlan();
    const [bo, cy] = [await person(), await person()];
    const first = await approve(reviewId, bo);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.review.status).toBe("pending");
    expect(await status(reviewId)).toBe("pending");
    // The same person again is still one approval: a 409 that says so (never a silent 200), nothing recorded.
    const again = await approve(reviewId, bo);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("already_decided");
    expect(again.body.error.message).toMatch(/^You approved at \d\d:\d\d · waiting for a reviewer/);
    expect(await released(sessionId)).toHaveLength(0);
    const events = await readEvents(api.t.db, sessionId);
    expect(ofType(events, "review.approved").map((e) => e.summary)).toEqual(["1 of 2 approvals"]);
    expect(await api.t.db.auditEntry.count({ where: { kind: "review.approval", subject: reviewId } })).toBe(1);

    // A webhook for the plan's ask says who is still needed (the body a delivery is made with).
    const asked = (await readEvents(api.t.db, sessionId)).find((e) => e.type === "review.asked");
    const row = await api.t.db.session.findUniqueOrThrow({ where: { id: sessionId } });
    const body = asked && (await eventBody(api.t.db, row, asked));
    expect(body?.review?.needs).toBe("1 of 2 approvals");

    const second = await approve(reviewId, cy);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(await status(reviewId)).toBe("approved");
    await settle(api, sessionId);
    expect(await released(sessionId)).toHaveLength(1);
    const approvals = await api.t.db.reviewApproval.findMany({ where: { reviewId }, orderBy: { createdAt: "asc" } });
    expect(approvals.map((a) => a.email)).toEqual([bo.email, cy.email]);
  });

  it("20 racing approvals from different people release the plan exactly once", async () => {
    await setPolicy({ approvals: 2 });
    const { sessionId, reviewId } = await pendingPlan();
    const crowd = await Promise.all(Array.from({ length: 20 }, () => person()));
    const answers = await Promise.all(crowd.map((p) => approve(reviewId, p)));
    const odd = answers.filter((a) => a.status !== 200 && a.status !== 409);
    expect(odd, JSON.stringify(odd)).toEqual([]);
    expect(await status(reviewId)).toBe("approved");
    await settle(api, sessionId);
    const events = await readEvents(api.t.db, sessionId);
    expect(ofType(events, "review.answered").filter((a) => a.reviewId === reviewId)).toHaveLength(1);
    expect(await released(sessionId)).toHaveLength(1);
    expect(ofType(events, "message.assistant").filter((m) => m.text === "carried on")).toHaveLength(1);
  });

  it("a path rule: a plan naming prisma/migrations/x.sql waits for its reviewers; a non-owner's approval is not enough", async () => {
    const dba = await person("reviewer", "dba@example.com");
    await setPolicy({
      paths: [{ patterns: ["prisma/migrations/*"], reviewers: ["team:db"], approvals: 1 }],
      teams: { db: ["dba@example.com"] },
    });
    const { sessionId, reviewId } = await pendingPlan("# Plan\n\n1. Add prisma/migrations/x.sql\n");
    const bo = await person();
    expect((await approve(reviewId, bo)).body.review.status).toBe("pending");
    const shown = await api.call("GET", `/api/reviews/${reviewId}`, undefined, bo);
    expect(shown.body.review.policy.summary).toBe("1 of 1 approval · needs team db");
    expect(shown.body.plan.files).toEqual(["prisma/migrations/x.sql"]);
    // Bo's approval would move it on no further (no notification wakes him); the database reviewer's would.
    expect(shown.body.review.policy.needsYou).toBe(false);
    expect((await api.call("GET", `/api/reviews/${reviewId}`, undefined, dba)).body.review.policy.needsYou).toBe(true);
    // The operator has an owner's rights, but is nobody a rule names: an approval that would count for nothing
    // open is refused, saying what is still needed.
    const operator = await approve(reviewId, undefined);
    expect(operator.status).toBe(403);
    expect(operator.body.error.message).toMatch(/would not count.*team db for prisma\/migrations\/x\.sql/);
    expect(await released(sessionId)).toHaveLength(0);
    expect((await approve(reviewId, dba)).status).toBe(200);
    expect(await status(reviewId)).toBe("approved");
  });

  it("self-approval off: the person who started the session cannot approve it; someone else can", async () => {
    await setPolicy({ allowSelfApproval: false });
    const ann = await person("reviewer");
    const sessionId = await startScripted(api, [exitWith("# Plan\n\n1. x\n"), { text: "carried on" }], {
      mode: "plan",
    });
    // Ann's own session: started with her cookie.
    const own = await api.call(
      "POST",
      "/api/sessions",
      { title: "t", workspace: api.workspace, model: "scripted", mode: "plan", script: [exitWith("# Plan\n\n1. x\n")] },
      ann,
    );
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const mine = own.body.session.id as string;
    expect(sessionId).not.toBe(mine);
    await api.call("POST", `/api/sessions/${mine}/messages`, { text: "plan it" }, ann);
    const reviewId = await awaitReview(api, mine);
    const refused = await approve(reviewId, ann);
    expect(refused.status).toBe(403);
    expect(await status(reviewId)).toBe("pending");
    expect(await api.t.db.reviewApproval.count({ where: { reviewId } })).toBe(0);
    expect((await approve(reviewId, await person())).status).toBe(200);
    expect(await status(reviewId)).toBe("approved");
  });

  it("a teammate is started by its lead session's person (whose approval self-approval off refuses)", async () => {
    const lea = await person("reviewer");
    const lead = await api.call(
      "POST",
      "/api/sessions",
      { title: "lead", workspace: api.workspace, model: "scripted", script: [] },
      lea,
    );
    expect(lead.status, JSON.stringify(lead.body)).toBe(201);
    const team = await api.call("POST", "/api/teams", { sessionId: lead.body.session.id, name: "crew" }, lea);
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const mate = await api.call(
      "POST",
      `/api/teams/${team.body.team.id}/teammates`,
      { name: "alice", task: "plan it", script: [exitWith("# Plan\n\n1. x\n")] },
      lea,
    );
    expect(mate.status, JSON.stringify(mate.body)).toBe(201);
    const row = await api.t.db.session.findUnique({ where: { id: mate.body.sessionId as string } });
    expect(row?.startedBy).toBe(lea.userId);
  });

  it("a new version dismisses the approvals the replaced one gathered", async () => {
    await setPolicy({ approvals: 2 });
    const cc = { agent: "claude-code", externalSessionId: "cc-policy", cwd: api.workspace };
    const v1 = await api.call("POST", "/api/external/plan-reviews", { ...cc, plan: "# Plan\n\n1. one\n" });
    expect(v1.status, JSON.stringify(v1.body)).toBe(201);
    const bo = await person();
    expect((await approve(v1.body.reviewId, bo)).body.review.status).toBe("pending");
    const v2 = await api.call("POST", "/api/external/plan-reviews", { ...cc, plan: "# Plan\n\n1. one\n2. two\n" });
    expect(v2.status).toBe(201);
    const stale = await api.t.db.reviewApproval.findMany({ where: { reviewId: v1.body.reviewId } });
    expect(stale.map((a) => [a.email, a.dismissedAt instanceof Date])).toEqual([[bo.email, true]]);
    expect(await api.t.db.auditEntry.count({ where: { kind: "approval.dismissed", subject: v1.body.reviewId } })).toBe(
      1,
    );
    // The new version starts from nothing: one approval leaves it pending, the hook keeps waiting.
    expect((await approve(v2.body.reviewId, bo)).body.review.status).toBe("pending");
    const waiting = await api.call("GET", `/api/external/plan-reviews/${v2.body.reviewId}?wait=0`);
    expect(waiting.body.status).toBe("pending");
    expect((await approve(v2.body.reviewId, await person())).status).toBe(200);
    expect((await api.call("GET", `/api/external/plan-reviews/${v2.body.reviewId}?wait=0`)).body.status).toBe(
      "approved",
    );
  });

  it("a repository's .plangate/reviewers adds owners once trusted, and cannot take a rule away", async () => {
    await setPolicy({ paths: [{ patterns: ["*.sql"], reviewers: ["dba@example.com"], approvals: 1 }] });
    const file = path.join(api.workspace, ".plangate", "reviewers");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "docs/ writer@example.com\n");
    const shown = await api.call("GET", `/api/policies?workspace=${encodeURIComponent(api.workspace)}`);
    expect(shown.body.owners.fileHash).toMatch(/^[0-9a-f]{64}$/);
    expect(
      (await api.call("POST", "/api/policies/owners", { workspace: api.workspace, hash: shown.body.owners.fileHash }))
        .status,
    ).toBe(200);
    // The repository then rewrites the file to drop everything and claim everything: the trusted content stands.
    fs.writeFileSync(file, "* agent@example.com\n");
    const { reviewId } = await pendingPlan("# Plan\n\n1. Edit docs/a.md\n2. Add db/x.sql\n");
    const bo = await person();
    const after = await approve(reviewId, bo);
    expect(after.body.review.policy.summary).toBe("1 of 1 approval · needs dba@example.com · needs writer@example.com");
    const policy = await api.call("GET", `/api/policies?workspace=${encodeURIComponent(api.workspace)}`);
    expect(policy.body.policy.paths).toHaveLength(1);
    expect(policy.body.owners.trusted).toEqual([{ pattern: "docs/", owners: ["writer@example.com"] }]);
    expect(await status(reviewId)).toBe("pending");
  });

  it("an owner overrides a policy that cannot be met, with a reason; a reviewer cannot", async () => {
    await setPolicy({ allowSelfApproval: false, approvals: 2 });
    const { sessionId, reviewId } = await pendingPlan();
    const rev = await person("reviewer");
    const owner = await person("owner");
    expect((await api.call("POST", `/api/reviews/${reviewId}/override`, { reason: "we are two" }, rev)).status).toBe(
      403,
    );
    expect((await api.call("POST", `/api/reviews/${reviewId}/override`, { reason: "" }, owner)).status).toBe(400);
    expect(await status(reviewId)).toBe("pending");
    const done = await api.call("POST", `/api/reviews/${reviewId}/override`, { reason: "the db team left" }, owner);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await status(reviewId)).toBe("approved");
    await settle(api, sessionId);
    expect(await released(sessionId)).toHaveLength(1);
    const audit = await api.t.db.auditEntry.findMany({ where: { kind: "review.overridden" } });
    expect(audit.map((a) => [a.subject, JSON.parse(a.detail).reason])).toEqual([[reviewId, "the db team left"]]);
    const answered = ofType(await readEvents(api.t.db, sessionId), "review.answered");
    expect(answered[0]?.by).toMatch(/overriding the review policy: the db team left/);
  });

  it("a policy asked for a folder outside the server's roots (an outside agent's label) reads nothing there", async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-elsewhere-"));
    try {
      fs.mkdirSync(path.join(elsewhere, ".plangate"));
      fs.writeFileSync(path.join(elsewhere, ".plangate", "reviewers"), "* attacker@example.com\n");
      const shown = await api.call("GET", `/api/policies?workspace=${encodeURIComponent(elsewhere)}`);
      expect(shown.status).toBe(200);
      expect(shown.body.owners).toMatchObject({ fileText: null, fileHash: null, trusted: [] });
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("a reviewers file planted as a symlink is never read nor trusted", async () => {
    const secret = path.join(path.dirname(api.workspace), "secret.txt");
    fs.writeFileSync(secret, "* attacker@example.com\n");
    fs.mkdirSync(path.join(api.workspace, ".plangate"), { recursive: true });
    fs.symlinkSync(secret, path.join(api.workspace, ".plangate", "reviewers"));
    const shown = await api.call("GET", `/api/policies?workspace=${encodeURIComponent(api.workspace)}`);
    expect(shown.status).toBe(200);
    expect(shown.body.owners).toMatchObject({ fileText: null, fileHash: null, trusted: [] });
    const hash = createHash("sha256").update("* attacker@example.com\n").digest("hex");
    const trust = await api.call("POST", "/api/policies/owners", { workspace: api.workspace, hash });
    expect(trust.status).toBe(400);
    expect(await api.t.db.reviewPolicy.count()).toBe(0);
  });

  it("only an owner sets a policy; a bad policy is a 400 naming the problem and changes nothing", async () => {
    const rev = await person("reviewer");
    const put = (body: Record<string, unknown>, as?: { cookie: string }) =>
      api.call(
        "PUT",
        "/api/policies",
        { workspace: api.workspace, approvals: 1, allowSelfApproval: true, paths: [], ...body },
        as,
      );
    expect((await put({ approvals: 0 }, rev)).status).toBe(403);
    const bad = await put({ paths: [{ patterns: ["x/*"], reviewers: ["team:nobody"], approvals: 1 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/no team named nobody/);
    expect((await put({ approvals: 0 })).status).toBe(400);
    expect(await api.t.db.reviewPolicy.count()).toBe(0);
    expect((await put({ approvals: 3 })).status).toBe(200);
    expect(await api.t.db.auditEntry.count({ where: { kind: "policy.changed" } })).toBe(1);
  });
});
