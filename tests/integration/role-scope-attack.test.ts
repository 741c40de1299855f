import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signedInCookie } from "../helpers/people";
import type { Role } from "../../lib/auth/rules/rights";
import { awaitReview, startScripted, testApi, type Api } from "../helpers/api";
import { exitWith, PLAN_V1 } from "../helpers/plan-kit";

// Issue 26, as the attack: a person with a role only over another team's workspace root (even an owner's there)
// signs in and asks every list, search, log and team route about this workspace. Nothing of it is listed, and
// nothing they try changes it.
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});

const signedIn = (email: string, roles: { root: string; role: Role }[]) => signedInCookie(api.t.db, email, roles);

async function fixture() {
  const sessionId = await startScripted(api, [exitWith(PLAN_V1), { text: "carried on" }], {
    mode: "plan",
    title: "Zanzibar migration",
  });
  expect((await api.call("POST", `/api/sessions/${sessionId}/messages`, { text: "plan it" })).status).toBe(202);
  const reviewId = await awaitReview(api, sessionId);
  const grant = await api.t.db.permissionGrant.create({
    data: { id: "grt_attack", scope: "workspace", workspace: api.workspace, permission: "bash", pattern: "ls *" },
  });
  await api.t.db.webhookDelivery.create({
    data: {
      id: "whd_attack",
      sessionId,
      seq: 1,
      event: "review.asked",
      url: "http://127.0.0.1:9/",
      source: "server",
      body: "{}",
    },
  });
  const team = await api.call("POST", "/api/teams", { sessionId, name: "leads" });
  expect(team.status, JSON.stringify(team.body)).toBe(201);
  return { sessionId, reviewId, grantId: grant.id, teamId: (team.body.team as { id: string }).id };
}

describe("a person sees and touches only the workspaces they have a role in", () => {
  it("lists, searches, logs and teams of another workspace show nothing to a stranger, and a viewer sees them", async () => {
    const { sessionId, reviewId, teamId } = await fixture();
    const stranger = await signedIn("stranger@example.com", [{ root: "/srv/other-team", role: "owner" }]);
    const viewer = await signedIn("viewer@example.com", [{ root: api.workspace, role: "viewer" }]);
    const lists: [string, (body: Record<string, unknown>) => unknown[]][] = [
      ["/api/sessions", (b) => (b.sessions as { id: string }[]).filter((s) => s.id === sessionId)],
      ["/api/sessions?q=zanzibar", (b) => b.sessions as unknown[]],
      ["/api/reviews?status=pending", (b) => b.reviews as unknown[]],
      ["/api/permissions", (b) => (b.permissions as { sessionId: string }[]).filter((p) => p.sessionId === sessionId)],
      ["/api/webhooks/deliveries", (b) => b.deliveries as unknown[]],
    ];
    for (const [url, pick] of lists) {
      const asStranger = await api.call("GET", url, undefined, stranger);
      expect(asStranger.status, url).toBe(200);
      expect(pick(asStranger.body), url).toEqual([]);
    }
    for (const url of [
      "/api/sessions",
      "/api/sessions?q=zanzibar",
      "/api/reviews?status=pending",
      "/api/webhooks/deliveries",
    ]) {
      const asViewer = await api.call("GET", url, undefined, viewer);
      expect(pick(url, asViewer.body).length, url).toBeGreaterThan(0);
    }
    for (const url of [
      `/api/reviews/${reviewId}`,
      `/api/teams/${teamId}`,
      `/api/teams/${teamId}/mailbox`,
      `/api/grants?workspace=${encodeURIComponent(api.workspace)}`,
      `/api/grants?sessionId=${sessionId}`,
      `/api/workspaces/trust?workspace=${encodeURIComponent(api.workspace)}`,
    ])
      expect((await api.call("GET", url, undefined, stranger)).status, url).toBe(403);
  });

  it("a stranger's writes to another workspace are 403 and change nothing", async () => {
    const { sessionId, reviewId, grantId, teamId } = await fixture();
    const stranger = await signedIn("stranger@example.com", [{ root: "/srv/other-team", role: "owner" }]);
    const sessions = await api.t.db.session.count();
    const mail = await api.t.db.mailboxMessage.count();
    const writes: [string, string, unknown][] = [
      ["DELETE", `/api/grants/${grantId}`, undefined],
      ["POST", "/api/workspaces/trust", { workspace: api.workspace, hash: "a".repeat(64) }],
      ["DELETE", `/api/workspaces/trust?workspace=${encodeURIComponent(api.workspace)}`, undefined],
      ["PATCH", `/api/teams/${teamId}`, { personApproval: false }],
      ["POST", `/api/teams/${teamId}/mailbox`, { to: sessionId, text: "stop" }],
      ["POST", `/api/teams/${teamId}/teammates`, { name: "mole", prompt: "look around" }],
      ["POST", "/api/teams", { sessionId, name: "mine" }],
    ];
    for (const [method, url, body] of writes)
      expect((await api.call(method, url, body, stranger)).status, `${method} ${url}`).toBe(403);
    const exported = await api.call("GET", `/api/sessions/${sessionId}/export?format=json`);
    expect(exported.status).toBe(200);
    const imported = await api.call(
      "POST",
      "/api/sessions/import",
      { ...(exported.body as object), session: { ...(exported.body.session as object), workspace: api.workspace } },
      stranger,
    );
    expect(imported.status).toBe(403);
    expect(await api.t.db.permissionGrant.findUnique({ where: { id: grantId } })).not.toBeNull();
    expect(await api.t.db.workspaceTrust.count()).toBe(0);
    expect(await api.t.db.team.findUnique({ where: { id: teamId } })).toMatchObject({ personApproval: true });
    expect(await api.t.db.session.count()).toBe(sessions);
    expect(await api.t.db.mailboxMessage.count()).toBe(mail);
    expect(await api.t.db.review.findUnique({ where: { id: reviewId } })).toMatchObject({ status: "pending" });
    expect(await api.t.db.auditEntry.count()).toBe(0);
  });

  it("an owner of the workspace revokes a grant, and the audit log names them", async () => {
    const { grantId } = await fixture();
    const owner = await signedIn("olga@example.com", [{ root: api.workspace, role: "owner" }]);
    const res = await api.call("DELETE", `/api/grants/${grantId}`, undefined, owner);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await api.t.db.permissionGrant.findUnique({ where: { id: grantId } })).toBeNull();
    const audit = await api.t.db.auditEntry.findMany({ where: { kind: "grant.revoked" } });
    expect(audit.map((a) => [a.name, a.subject, a.workspace])).toEqual([["olga", grantId, api.workspace]]);
  });
});

function pick(url: string, body: Record<string, unknown>): unknown[] {
  const key = url.split("?")[0]?.split("/").at(-1) ?? "";
  const lists: Record<string, string> = { sessions: "sessions", reviews: "reviews", deliveries: "deliveries" };
  return (body[lists[key] ?? key] as unknown[]) ?? [];
}
