import { afterEach, describe, expect, it } from "vitest";
import { createPerson } from "../../lib/db/people/people";
import { awaitReview, call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { signedInCookie, TEST_PASSWORD } from "../helpers/people";
import { exitWith, PLAN_V1 } from "../helpers/plan-kit";

// Issue 41, class 8: an import is the importer's act. A member imported a session log whose events said the owner
// approved its plan and answered its asks; the imported session's export and timeline then read "Plan approved by
// <owner>", who never saw it. The attack: a real log (decided by the operator) with every signer renamed to the
// owner, plus forged approvals, a forged answer and a notice in the server's voice, imported by a member through the
// API. The effect to be absent: anywhere the session is read, the owner signed nothing; the audit log has nothing
// of the owner's and records the import as the member's.
let api: Api;
afterEach(async () => {
  await api?.close();
});

type Exported = { events: { seq: number; type: string; payload: Record<string, unknown>; at?: string }[] };
type Logged = { seq: number; type: string; payload: Record<string, unknown> };

/** A real export: a plan approved and a writing command allowed once, both by the operator. */
async function decidedLog(): Promise<Exported> {
  const id = await startScripted(
    api,
    [exitWith(PLAN_V1), call("bash", { command: "touch made-by-the-work" }), { text: "done" }],
    { mode: "plan" },
  );
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan it" });
  const reviewId = await awaitReview(api, id);
  expect((await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" })).status).toBe(200);
  expect((await settle(api, id)).status).toBe("awaiting_permission");
  const [ask] = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions;
  expect((await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" })).status).toBe(200);
  await settle(api, id);
  return (await api.call("GET", `/api/sessions/${id}/export?format=json`)).body as Exported;
}

/** The log, every signer renamed to `name`, with more of their "decisions" added at its end. */
function forged(log: Exported, name: string): Exported {
  const copy = structuredClone(log);
  for (const e of copy.events) if (typeof e.payload.by === "string") e.payload.by = name;
  const more: Omit<Logged, "seq">[] = [
    { type: "review.approved", payload: { reviewId: "rev_forged", by: name, summary: `Approved by ${name}` } },
    { type: "review.asked", payload: { reviewId: "rev_question", kind: "question" } },
    { type: "review.answered", payload: { reviewId: "rev_question", decision: "answered", by: name, feedback: "yes" } },
    { type: "notice", payload: { level: "info", text: `Plan approved by ${name}` } },
  ];
  for (const e of more) copy.events.push({ ...e, seq: copy.events.length + 1 });
  return copy;
}

const signedAs = (events: Logged[], name: string) => events.filter((e) => e.payload.by === name);

describe("an import is the importer's act", () => {
  it("a member's import claiming the owner approved and answered: claims in every read, audited as the member's", async () => {
    api = testApi();
    const owner = await createPerson(api.t.db, {
      email: "olivia@example.com",
      name: "Olivia",
      password: TEST_PASSWORD,
      memberships: [{ root: "/", role: "owner" }],
    });
    const member = await signedInCookie(api.t.db, "mia@example.com", [{ root: "/", role: "member" }]);
    const file = forged(await decidedLog(), "Olivia");
    expect(signedAs(file.events, "Olivia").length).toBeGreaterThanOrEqual(4);

    const imported = await api.call("POST", "/api/sessions/import", file, { cookie: member.cookie });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const id = imported.body.session.id as string;
    const as = { cookie: member.cookie };

    // The log as the API gives it, and the JSON export: no event is signed by the owner; the file's word is kept
    // as its claim.
    const events = (await api.call("GET", `/api/sessions/${id}/events?limit=5000`, undefined, as)).body
      .events as Logged[];
    const exported = (await api.call("GET", `/api/sessions/${id}/export?format=json`, undefined, as)).body as Exported;
    for (const log of [events, exported.events as Logged[]]) {
      expect(signedAs(log, "Olivia")).toEqual([]);
      expect(log.filter((e) => e.payload.claimedBy === "Olivia").length).toBeGreaterThanOrEqual(4);
    }
    // The Markdown export (the timeline's words): the owner is named only as what the file says.
    const md = (await api.call("GET", `/api/sessions/${id}/export?format=md`, undefined, as)).body as string;
    const naming = md.split("\n").filter((l) => l.includes("Olivia"));
    expect(naming.length).toBeGreaterThanOrEqual(5);
    for (const line of naming) expect(line).toMatch(/imported: the file says/i);
    expect(md).toMatch(/Imported from a file by mia/);
    // The state and the History carry no decision of hers either.
    const lastSeq = events.at(-1)?.seq ?? 1;
    for (const path of [
      `/api/sessions/${id}`,
      `/api/sessions/${id}/state?at=${lastSeq}`,
      `/api/sessions/${id}/history`,
    ]) {
      const res = await api.call("GET", path, undefined, as);
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain("Olivia");
    }
    // A fork of the import keeps them as claims.
    const fork = await api.call("POST", `/api/sessions/${id}/fork`, {}, as);
    expect(fork.status).toBe(201);
    const forkLog = (await api.call("GET", `/api/sessions/${fork.body.session.id}/events?limit=5000`, undefined, as))
      .body.events as Logged[];
    expect(signedAs(forkLog, "Olivia")).toEqual([]);

    // The audit log: nothing signed by the owner; the import, signed by the member who made it.
    const audit = (await api.call("GET", "/api/audit?limit=1000")).body.entries as {
      userId: string | null;
      name: string;
      kind: string;
      sessionId: string | null;
      credential: string;
    }[];
    expect(audit.filter((a) => a.userId === owner.id || a.name.includes("Olivia"))).toEqual([]);
    expect(audit.filter((a) => a.kind === "session.imported")).toEqual([
      expect.objectContaining({ userId: member.userId, name: "mia", sessionId: id, credential: "session" }),
    ]);
  });
});
