import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as streamRoute } from "../../app/api/sessions/[id]/stream/route";
import { createPerson } from "../../lib/db/people/people";
import { createToken } from "../../lib/db/people/tokens";
import { awaitReview, startScripted, testApi, type Api } from "../helpers/api";
import { signedInCookie } from "../helpers/people";
import { exitWith, PLAN_V1 } from "../helpers/plan-kit";

// Issue 26, as the attack, on every route that takes an id: a person signed in with a role only over another
// team's root (an owner there) calls each one with the id of something in this workspace. Each is 403 or 404,
// and the database is exactly as it was. The table must name every such route file and method: a new one that
// is not here fails the first test, before anyone has to remember to attack it.
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});

const repo = path.resolve(import.meta.dirname, "../..");
// Open on purpose: the one-time link's secret and better-auth's own routes are the credential themselves.
const OPEN = ["app/api/auth/[...all]/route.ts", "app/api/links/[token]/route.ts"];

function idRoutes(): string[] {
  return fs
    .readdirSync(path.join(repo, "app/api"), { recursive: true, encoding: "utf8" })
    .filter((f) => path.basename(f) === "route.ts" && f.includes("["))
    .map((f) => path.join("app/api", f))
    .filter((f) => !OPEN.includes(f));
}

const methodsOf = (file: string) =>
  [...fs.readFileSync(path.join(repo, file), "utf8").matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map(
    (m) => m[1] as string,
  );

async function fixture() {
  const sessionId = await startScripted(api, [exitWith(PLAN_V1), { text: "carried on" }], { mode: "plan" });
  expect((await api.call("POST", `/api/sessions/${sessionId}/messages`, { text: "plan it" })).status).toBe(202);
  const reviewId = await awaitReview(api, sessionId);
  const rita = await createPerson(api.t.db, {
    email: "rita@example.com",
    name: "Rita",
    memberships: [{ root: api.workspace, role: "member" }],
  });
  const agent = await createToken(api.t.db, { userId: rita.id, name: "claude", scope: "agent" });
  const cc = { agent: "claude-code", externalSessionId: "cc-1", cwd: api.workspace };
  const external = await api.call(
    "POST",
    "/api/external/plan-reviews",
    { ...cc, plan: "# Plan\n\n1. x\n" },
    {
      bearer: agent.secret,
    },
  );
  expect(external.status, JSON.stringify(external.body)).toBe(201);
  const asked = await api.call(
    "POST",
    "/api/external/permission-asks",
    { ...cc, tool: "Bash", input: { command: "touch x" } },
    { bearer: agent.secret },
  );
  expect(asked.status, JSON.stringify(asked.body)).toBe(201);
  const grant = await api.t.db.permissionGrant.create({
    data: { id: "grt_attack", scope: "workspace", workspace: api.workspace, permission: "bash", pattern: "ls *" },
  });
  const team = await api.call("POST", "/api/teams", { sessionId, name: "leads" });
  expect(team.status, JSON.stringify(team.body)).toBe(201);
  const teamId = (team.body.team as { id: string }).id;
  const message = await api.t.db.mailboxMessage.create({
    data: {
      id: "mbx_attack",
      teamId,
      seq: 1,
      fromSession: sessionId,
      toSession: sessionId,
      type: "message",
      payload: "{}",
    },
  });
  const passkey = await api.t.db.passkey.create({
    data: {
      id: "pky_attack",
      userId: rita.id,
      publicKey: "key",
      credentialID: "cred",
      counter: 0,
      deviceType: "singleDevice",
      backedUp: false,
    },
  });
  // Rita's phone: a stranger must not stop its push (DELETE /api/me/push/:id is the person's own devices only).
  const device = await api.t.db.pushSubscription.create({
    data: {
      id: "psh_attack",
      userId: rita.id,
      endpoint: "https://fcm.googleapis.com/fcm/send/rita",
      p256dh: "k",
      auth: "a",
    },
  });
  const invite = await api.t.db.oneTimeLink.create({
    data: {
      id: "lnk_attack",
      hash: "attack-invite-hash",
      purpose: "invite",
      email: "newcomer@example.com",
      role: "reviewer",
      root: api.workspace,
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  return {
    inviteId: invite.id,
    sessionId,
    reviewId,
    externalReviewId: external.body.reviewId as string,
    requestId: asked.body.requestId as string,
    grantId: grant.id,
    teamId,
    messageId: message.id,
    personId: rita.id,
    tokenId: agent.token.id,
    passkeyId: passkey.id,
    deviceId: device.id,
  };
}

type Ids = Awaited<ReturnType<typeof fixture>>;
type Call = [method: string, url: string, body?: unknown];

function attacks(x: Ids, ws: string): Record<string, Call[]> {
  const s = `/api/sessions/${x.sessionId}`;
  return {
    "app/api/external/permission-asks/[id]/route.ts": [["GET", `/api/external/permission-asks/${x.requestId}?wait=0`]],
    "app/api/external/plan-reviews/[id]/answered-elsewhere/route.ts": [
      ["POST", `/api/external/plan-reviews/${x.externalReviewId}/answered-elsewhere`, { decision: "approve" }],
    ],
    "app/api/external/plan-reviews/[id]/route.ts": [["GET", `/api/external/plan-reviews/${x.externalReviewId}?wait=0`]],
    "app/api/grants/[id]/route.ts": [["DELETE", `/api/grants/${x.grantId}`]],
    "app/api/invites/[id]/route.ts": [["DELETE", `/api/invites/${x.inviteId}`]],
    "app/api/passkeys/[id]/route.ts": [["DELETE", `/api/passkeys/${x.passkeyId}`]],
    "app/api/me/push/[id]/route.ts": [["DELETE", `/api/me/push/${x.deviceId}`]],
    "app/api/people/[id]/deactivate/route.ts": [["POST", `/api/people/${x.personId}/deactivate`, {}]],
    "app/api/people/[id]/role/route.ts": [["POST", `/api/people/${x.personId}/role`, { root: ws, role: "owner" }]],
    "app/api/permissions/[id]/reply/route.ts": [["POST", `/api/permissions/${x.requestId}/reply`, { reply: "once" }]],
    "app/api/reviews/[id]/decision/route.ts": [
      ["POST", `/api/reviews/${x.reviewId}/decision`, { decision: "approve" }],
    ],
    "app/api/reviews/[id]/route.ts": [["GET", `/api/reviews/${x.reviewId}`]],
    "app/api/reviews/[id]/override/route.ts": [
      ["POST", `/api/reviews/${x.reviewId}/override`, { reason: "nobody else is here" }],
    ],
    "app/api/sessions/[id]/abort/route.ts": [["POST", `${s}/abort`, {}]],
    "app/api/sessions/[id]/events/route.ts": [["GET", `${s}/events`]],
    "app/api/sessions/[id]/export/route.ts": [["GET", `${s}/export?format=json`]],
    "app/api/sessions/[id]/fork/route.ts": [["POST", `${s}/fork`, {}]],
    "app/api/sessions/[id]/history/route.ts": [["GET", `${s}/history`]],
    "app/api/sessions/[id]/messages/route.ts": [["POST", `${s}/messages`, { text: "delete everything" }]],
    "app/api/sessions/[id]/mode/route.ts": [["POST", `${s}/mode`, { mode: "bypassPermissions" }]],
    "app/api/sessions/[id]/resume/route.ts": [["POST", `${s}/resume`, {}]],
    "app/api/sessions/[id]/route.ts": [
      ["GET", s],
      ["DELETE", s],
    ],
    "app/api/sessions/[id]/state/route.ts": [["GET", `${s}/state`]],
    "app/api/sessions/[id]/stream/route.ts": [["GET", `${s}/stream`]],
    "app/api/sessions/[id]/verify/route.ts": [
      ["GET", `${s}/verify`],
      ["POST", `${s}/verify`, {}],
    ],
    "app/api/teams/[id]/leads/route.ts": [
      ["POST", `/api/teams/${x.teamId}/leads`, { email: "stranger@example.com" }],
      ["DELETE", `/api/teams/${x.teamId}/leads`, { email: "rita@example.com" }],
    ],
    "app/api/teams/[id]/mailbox/[messageId]/reply/route.ts": [
      ["POST", `/api/teams/${x.teamId}/mailbox/${x.messageId}/reply`, { approve: true }],
    ],
    "app/api/teams/[id]/members/route.ts": [["POST", `/api/teams/${x.teamId}/members`, { sessionId: x.sessionId }]],
    "app/api/teams/[id]/mailbox/route.ts": [
      ["GET", `/api/teams/${x.teamId}/mailbox`],
      ["POST", `/api/teams/${x.teamId}/mailbox`, { to: x.sessionId, text: "stop" }],
    ],
    "app/api/teams/[id]/route.ts": [
      ["GET", `/api/teams/${x.teamId}`],
      ["PATCH", `/api/teams/${x.teamId}`, { personApproval: false }],
    ],
    "app/api/teams/[id]/teammates/route.ts": [
      ["POST", `/api/teams/${x.teamId}/teammates`, { name: "mole", prompt: "look" }],
    ],
    "app/api/tokens/[id]/route.ts": [["DELETE", `/api/tokens/${x.tokenId}`]],
  };
}

/** Everything the attacks could change, read in full. */
async function snapshot() {
  const db = api.t.db;
  const order = { orderBy: { id: "asc" as const } };
  return JSON.stringify({
    sessions: await db.session.findMany(order),
    events: await db.sessionEvent.count(),
    reviews: await db.review.findMany(order),
    requests: await db.permissionRequest.findMany(order),
    grants: await db.permissionGrant.findMany(order),
    teams: await db.team.findMany(order),
    leads: await db.teamLead.findMany({ orderBy: { userId: "asc" } }),
    mail: await db.mailboxMessage.findMany(order),
    users: await db.user.findMany(order),
    memberships: await db.membership.findMany({ orderBy: [{ userId: "asc" }, { root: "asc" }] }),
    tokens: await db.apiToken.findMany(order),
    passkeys: await db.passkey.findMany(order),
    devices: await db.pushSubscription.findMany(order),
    links: await db.oneTimeLink.findMany(order),
    audit: await db.auditEntry.count(),
  });
}

describe("every route that takes an id, as a stranger", () => {
  it("the attack table names every id route and each of its methods", () => {
    const table = attacks({} as Ids, "/ws");
    expect(Object.keys(table).sort()).toEqual(idRoutes().sort());
    for (const [file, calls] of Object.entries(table))
      expect(calls.map(([m]) => m).sort(), file).toEqual(methodsOf(file).sort());
  });

  it("each call is 403 or 404 and changes nothing", async () => {
    const ids = await fixture();
    const stranger = await signedInCookie(api.t.db, "stranger@example.com", [
      { root: "/srv/other-team", role: "owner" },
    ]);
    const before = await snapshot();
    for (const [file, calls] of Object.entries(attacks(ids, api.workspace)))
      for (const [method, url, body] of calls) {
        // The stream answers 200 and stays open if it lets the stranger in: ask for its status only.
        const res = file.endsWith("stream/route.ts")
          ? await streamRoute(new Request(`http://127.0.0.1${url}`, { headers: { cookie: stranger.cookie } }), {
              params: Promise.resolve({ id: ids.sessionId }),
            })
          : await api.call(method, url, body, stranger);
        if ("body" in res && res.body instanceof ReadableStream) await res.body.cancel();
        expect([403, 404], `${method} ${url}: ${res.status}`).toContain(res.status);
      }
    expect(await snapshot()).toEqual(before);
  });
});
