import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPerson } from "../../lib/db/people/people";
import { createToken, revokeToken } from "../../lib/db/people/tokens";
import { signedInCookie } from "../helpers/people";
import type { Role } from "../../lib/auth/rules/rights";
import { awaitReview, startScripted, testApi, type Api } from "../helpers/api";
import { exitWith, PLAN_V1 } from "../helpers/plan-kit";

// Issue 26, written as the attacks: a local process with no credential, an outside agent's own token, a viewer,
// a person with no role where the session works, a revoked token. Each is refused and its effect is absent.
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});

const pendingPlan = async () => {
  const sessionId = await startScripted(api, [exitWith(PLAN_V1), { text: "carried on" }], { mode: "plan" });
  expect((await api.call("POST", `/api/sessions/${sessionId}/messages`, { text: "plan it" })).status).toBe(202);
  const reviewId = await awaitReview(api, sessionId);
  return { sessionId, reviewId };
};
const reviewStatus = async (id: string) => (await api.t.db.review.findUnique({ where: { id } }))?.status;
const eventCount = (sessionId: string) => api.t.db.sessionEvent.count({ where: { sessionId } });

const personCookie = (email: string, roles: { root: string; role: Role }[]) => signedInCookie(api.t.db, email, roles);

// Every route that decides or changes anything, with a body that would pass its schema where it matters.
const MUTATIONS = (s: string, r: string): [string, string, unknown][] => [
  ["POST", "/api/sessions", { title: "x", model: "scripted", script: [] }],
  ["POST", "/api/sessions/import", {}],
  ["DELETE", `/api/sessions/${s}`, undefined],
  ["POST", `/api/sessions/${s}/messages`, { text: "go on" }],
  ["POST", `/api/sessions/${s}/abort`, undefined],
  ["POST", `/api/sessions/${s}/resume`, undefined],
  ["POST", `/api/sessions/${s}/mode`, { mode: "acceptEdits" }],
  ["POST", `/api/sessions/${s}/fork`, {}],
  ["POST", `/api/sessions/${s}/verify`, undefined],
  ["POST", `/api/reviews/${r}/decision`, { decision: "approve", mode: "acceptEdits" }],
  ["POST", "/api/permissions/prm_x/reply", { reply: "once" }],
  ["POST", "/api/teams", { leadSessionId: s }],
  ["POST", "/api/workspaces/trust", { workspace: api.workspace, hash: "x" }],
  ["DELETE", "/api/grants/grt_x", undefined],
  [
    "POST",
    "/api/external/plan-reviews",
    { agent: "claude-code", externalSessionId: "e", cwd: api.workspace, plan: "# P" },
  ],
  ["POST", "/api/tokens", { name: "t", scope: "reviewer" }],
];

const repo = path.resolve(import.meta.dirname, "../..");
// Open on purpose: better-auth's own routes and a one-time link (its secret is the credential).
// Open by design, each with its own attack tests: sign-in, one-time links, and Slack's requests (signed by Slack
// instead: tests/integration/notify-slack.test.ts).
const OPEN = new Set([
  "app/api/auth/[...all]/route.ts",
  "app/api/links/[token]/route.ts",
  "app/api/integrations/slack/interactions/route.ts",
]);

/** Every state-changing handler on disk, as [method, url] with a made-up id in each dynamic segment. */
function everyMutation(): [string, string][] {
  const out: [string, string][] = [];
  for (const f of fs.readdirSync(path.join(repo, "app/api"), { recursive: true, encoding: "utf8" })) {
    const file = path.join("app/api", f);
    if (path.basename(f) !== "route.ts" || OPEN.has(file)) continue;
    const url = `/${path
      .dirname(file)
      .replace(/^app\//, "")
      .replace(/\[[^\]]+\]/g, "x_1")}`;
    for (const m of fs.readFileSync(path.join(repo, file), "utf8").matchAll(/export const (POST|PUT|PATCH|DELETE)\b/g))
      out.push([m[1] as string, url]);
  }
  return out;
}

describe("people, not processes", () => {
  it("every state-changing route found on disk is 401 with no credential", async () => {
    const all = everyMutation();
    expect(all.length).toBeGreaterThan(30);
    for (const [method, url] of all)
      expect((await api.call(method, url, {}, null)).status, `${method} ${url}`).toBe(401);
    expect(await api.t.db.auditEntry.count()).toBe(0);
  });

  it("with no credential, every route that decides or changes anything is 401 and changes nothing", async () => {
    const { sessionId, reviewId } = await pendingPlan();
    const before = await eventCount(sessionId);
    const sessions = await api.t.db.session.count();
    for (const [method, url, body] of MUTATIONS(sessionId, reviewId)) {
      const res = await api.call(method, url, body, null);
      expect(res.status, `${method} ${url}`).toBe(401);
    }
    // A bearer that is not a token is no credential either, and never falls back to a cookie.
    const forged = await api.call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      { decision: "approve" },
      { bearer: "x".repeat(30) },
    );
    expect(forged.status).toBe(401);
    // A forged or malformed session cookie is no credential (and never a 500).
    for (const cookie of ["plangate.session_token=forged.signature", "plangate.session_token=%E0%A4%A"]) {
      const res = await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" }, { cookie });
      expect(res.status, cookie).toBe(401);
    }
    expect(await reviewStatus(reviewId)).toBe("pending");
    expect(await eventCount(sessionId)).toBe(before);
    expect(await api.t.db.session.count()).toBe(sessions);
    expect(await api.t.db.apiToken.count()).toBe(0);
  });

  it("an agent token submits a plan and waits for it, but its own decision is 403 and the review stays pending", async () => {
    const owner = await createPerson(api.t.db, {
      email: "own@example.com",
      name: "Own",
      memberships: [{ root: "/", role: "owner" }],
    });
    const { secret } = await createToken(api.t.db, { userId: owner.id, name: "claude", scope: "agent" });
    const as = { bearer: secret };
    const submitted = await api.call(
      "POST",
      "/api/external/plan-reviews",
      { agent: "claude-code", externalSessionId: "cc-9", cwd: api.workspace, plan: "# Plan\n\n1. Do it\n" },
      as,
    );
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    const reviewId = submitted.body.reviewId as string;
    expect((await api.call("GET", `/api/external/plan-reviews/${reviewId}?wait=0`, undefined, as)).status).toBe(200);
    const approve = await api.call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      { decision: "approve", mode: "acceptEdits" },
      as,
    );
    expect(approve.status).toBe(403);
    expect((await api.call("GET", "/api/sessions", undefined, as)).status).toBe(403);
    expect(await reviewStatus(reviewId)).toBe("pending");
  });

  it("a viewer cannot decide, and a person with no role over the workspace can neither read nor decide", async () => {
    const { sessionId, reviewId } = await pendingPlan();
    const viewer = await personCookie("vi@example.com", [{ root: "/", role: "viewer" }]);
    expect((await api.call("GET", `/api/sessions/${sessionId}`, undefined, viewer)).status).toBe(200);
    const byViewer = await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" }, viewer);
    expect(byViewer.status).toBe(403);
    const elsewhere = await personCookie("el@example.com", [{ root: "/srv/other-team", role: "owner" }]);
    expect((await api.call("GET", `/api/sessions/${sessionId}`, undefined, elsewhere)).status).toBe(403);
    expect((await api.call("GET", `/api/sessions/${sessionId}/export`, undefined, elsewhere)).status).toBe(403);
    const byStranger = await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" }, elsewhere);
    expect(byStranger.status).toBe(403);
    expect(await reviewStatus(reviewId)).toBe("pending");
  });

  it("a reviewer's approval is signed with their name, in the review, the timeline event and the audit log", async () => {
    const { sessionId, reviewId } = await pendingPlan();
    const rita = await personCookie("rita@example.com", [{ root: "/", role: "reviewer" }]);
    const res = await api.call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      { decision: "approve", mode: "acceptEdits" },
      rita,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await api.t.db.review.findUnique({ where: { id: reviewId } });
    expect(row).toMatchObject({ status: "approved", deciderName: "rita", credential: "session" });
    const answered = await api.t.db.sessionEvent.findFirst({ where: { sessionId, type: "review.answered" } });
    expect(JSON.parse(answered?.payload ?? "{}")).toMatchObject({ decision: "approve", by: "rita" });
    const audit = await api.t.db.auditEntry.findMany({ where: { kind: "review.approved" } });
    expect(audit.map((a) => [a.name, a.subject, a.sessionId])).toEqual([["rita", reviewId, sessionId]]);
  });

  it("a reviewer token answers as its person via the token, and stops at once when revoked", async () => {
    const { reviewId } = await pendingPlan();
    const bo = await createPerson(api.t.db, {
      email: "bo@example.com",
      name: "Bo",
      // An owner: even so, the token only reads and answers for them.
      memberships: [{ root: "/", role: "owner" }],
    });
    const { token, secret } = await createToken(api.t.db, { userId: bo.id, name: "bot", scope: "reviewer" });
    expect((await api.call("GET", "/api/reviews?status=pending", undefined, { bearer: secret })).status).toBe(200);
    // It answers and reads, nothing more: no sessions started, no people invited, no tokens made with it.
    const sessions = await api.t.db.session.count();
    for (const [url, body] of [
      ["/api/sessions", { workspace: api.workspace, agent: "build", mode: "default", model: "offline" }],
      ["/api/invites", { role: "viewer", root: api.workspace }],
      ["/api/tokens", { name: "more", scope: "reviewer" }],
    ] as const)
      expect((await api.call("POST", url, body, { bearer: secret })).status, url).toBe(403);
    expect(await api.t.db.session.count()).toBe(sessions);
    expect(await api.t.db.apiToken.count()).toBe(1);
    expect(await api.t.db.oneTimeLink.count()).toBe(0);
    await revokeToken(api.t.db, token.id);
    const after = await api.call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      { decision: "approve" },
      { bearer: secret },
    );
    expect(after.status).toBe(401);
    expect(await reviewStatus(reviewId)).toBe("pending");
    const second = await createToken(api.t.db, { userId: bo.id, name: "bot2", scope: "reviewer" });
    const ok = await api.call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      { decision: "reject", feedback: "smaller" },
      { bearer: second.secret },
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await api.t.db.review.findUnique({ where: { id: reviewId } })).toMatchObject({
      deciderName: `Bo via token ${second.token.id}`,
      credential: `token:${second.token.id}`,
    });
  });
});
