import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPerson } from "../../lib/db/people/people";
import { createToken } from "../../lib/db/people/tokens";
import type { Role } from "../../lib/auth/rules/rights";
import { testApi, type Api } from "../helpers/api";

// Issue 26, as the attack: an outside agent holds an `agent` token and runs unsandboxed as the user, so it can
// call any route with it. It must reach only the session its own token created: another agent's token (or the
// same person's second agent) cannot wait on, supersede, answer for or ask on that session's reviews.
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});

let people = 0;
async function agentToken(role: Role = "member"): Promise<{ bearer: string; tokenId: string; userId: string }> {
  const person = await createPerson(api.t.db, {
    email: `agent-owner-${++people}@example.com`,
    name: `Owner ${people}`,
    memberships: [{ root: "/", role }],
  });
  const { token, secret } = await createToken(api.t.db, { userId: person.id, name: "claude", scope: "agent" });
  return { bearer: secret, tokenId: token.id, userId: person.id };
}

const plan = (externalSessionId: string, text = "# Plan\n\n1. Do it\n") => ({
  agent: "claude-code",
  externalSessionId,
  cwd: api.workspace,
  plan: text,
});
const ask = (externalSessionId: string) => ({
  agent: "claude-code",
  externalSessionId,
  cwd: api.workspace,
  tool: "Bash",
  input: { command: "touch made-by-the-agent" },
});
const review = (id: string) => api.t.db.review.findUnique({ where: { id } });

describe("an agent token reaches only its own session", () => {
  it("GET /api/me names the token and its person, and nothing without a credential", async () => {
    const a = await agentToken();
    const me = await api.call("GET", "/api/me", undefined, a);
    expect(me.status).toBe(200);
    expect(me.body.actor).toMatchObject({ kind: "agent-token", tokenId: a.tokenId, userId: a.userId });
    expect((await api.call("GET", "/api/me", undefined, null)).status).toBe(401);
    expect((await api.call("GET", "/api/me", undefined, { bearer: "pgt_not-a-token" })).status).toBe(401);
  });

  it("the session is bound to the token that created it, and recorded as its person's", async () => {
    const a = await agentToken();
    const res = await api.call("POST", "/api/external/plan-reviews", plan("cc-a"), a);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const row = await api.t.db.session.findUnique({ where: { id: res.body.sessionId as string } });
    expect(row).toMatchObject({ startedBy: a.userId, agentTokenId: a.tokenId });
    const own = await api.call("GET", `/api/external/plan-reviews/${res.body.reviewId}?wait=0`, undefined, a);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ status: "pending" });
  });

  it("another agent's token cannot wait on, close, supersede or ask on it; the review stays pending", async () => {
    const a = await agentToken();
    const b = await agentToken();
    const submitted = await api.call("POST", "/api/external/plan-reviews", plan("cc-a"), a);
    expect(submitted.status).toBe(201);
    const reviewId = submitted.body.reviewId as string;
    const sessionId = submitted.body.sessionId as string;
    const events = await api.t.db.sessionEvent.count({ where: { sessionId } });

    const wait = await api.call("GET", `/api/external/plan-reviews/${reviewId}?wait=0`, undefined, b);
    expect(wait.status).toBe(403);
    expect(JSON.stringify(wait.body)).not.toContain("Do it");
    const close = await api.call(
      "POST",
      `/api/external/plan-reviews/${reviewId}/answered-elsewhere`,
      { answer: "approved" },
      b,
    );
    expect(close.status).toBe(403);
    // The same agent id and folder would name the same session: submitting there would supersede a's review.
    const supersede = await api.call("POST", "/api/external/plan-reviews", plan("cc-a", "# Mine\n\n1. Other\n"), b);
    expect(supersede.status).toBe(403);
    const asked = await api.call("POST", "/api/external/permission-asks", ask("cc-a"), b);
    expect(asked.status).toBe(403);

    expect(await review(reviewId)).toMatchObject({ status: "pending", decision: null });
    expect(await api.t.db.permissionRequest.count({ where: { sessionId } })).toBe(0);
    expect(await api.t.db.sessionEvent.count({ where: { sessionId } })).toBe(events);
  });

  it("another agent's token cannot read or wait on its permission asks", async () => {
    const a = await agentToken();
    const b = await agentToken();
    const asked = await api.call("POST", "/api/external/permission-asks", ask("cc-a"), a);
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    const id = asked.body.requestId as string;
    expect((await api.call("GET", `/api/external/permission-asks/${id}?wait=0`, undefined, b)).status).toBe(403);
    expect((await api.call("GET", `/api/external/permission-asks/${id}?wait=0`, undefined, a)).status).toBe(200);
    expect(await api.t.db.permissionRequest.findUnique({ where: { id } })).toMatchObject({ status: "pending" });
  });

  it("a session the operator's hook created is not any agent token's to take over", async () => {
    const a = await agentToken();
    const byOperator = await api.call("POST", "/api/external/plan-reviews", plan("cc-op"));
    expect(byOperator.status).toBe(201);
    const reviewId = byOperator.body.reviewId as string;
    expect((await api.call("GET", `/api/external/plan-reviews/${reviewId}?wait=0`, undefined, a)).status).toBe(403);
    expect((await api.call("POST", "/api/external/plan-reviews", plan("cc-op"), a)).status).toBe(403);
    expect(await review(reviewId)).toMatchObject({ status: "pending" });
  });

  it("a viewer's agent token submits nothing: a token has at most its person's rights", async () => {
    const v = await agentToken("viewer");
    const sessions = await api.t.db.session.count();
    expect((await api.call("POST", "/api/external/plan-reviews", plan("cc-v"), v)).status).toBe(403);
    expect((await api.call("POST", "/api/external/permission-asks", ask("cc-v"), v)).status).toBe(403);
    expect(await api.t.db.session.count()).toBe(sessions);
  });
});
