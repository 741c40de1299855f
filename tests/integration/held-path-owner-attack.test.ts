import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readEvents } from "../../lib/db/session-log/read-events";
import { awaitReview, call, settle, startScripted, testApi, type Api, type Step } from "../helpers/api";
import { exitWith, ofType } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";
import { waitFor } from "../helpers/poll";

// Issue 41, class 7, as the attack: a review policy holds migrations/* for Olive; the plan named other files and was
// approved by someone else; the agent's write to migrations/001_drop.sql asks. Only Olive (or an owner's audited
// override, with a reason) answers it: not the session's starter, not another reviewer, never "always", and no mode.
let api: Api;
beforeEach(() => {
  api = testApi({ env: { PLANGATE_ENABLE_BYPASS: "1" } });
});
afterEach(async () => {
  await api?.close();
});
const { person, setPolicy } = policyKit(() => api);
type As = { cookie: string };
const DROP = "migrations/001_drop.sql";
const written = (file = DROP) => fs.existsSync(path.join(api.workspace, file));
const write = (file = DROP): Step => call("write", { path: file, content: "DROP TABLE users;\n" });

/**
 * The policy, its people, and a session Sam started whose plan (naming src/app.ts only) Bo approved into `mode`;
 * its next steps are `steps`. Returns once the session waits on its first ask.
 */
async function heldSession(steps: Step[], mode = "acceptEdits") {
  const later = mode === "bypassPermissions";
  const approveInto = later ? "default" : mode;
  const olive = await person("reviewer", "olive@example.com");
  const sam = await person("reviewer", "sam@example.com");
  const bo = await person("reviewer", "bo@example.com");
  const owner = await person("owner", "owner@example.com");
  await setPolicy({
    allowSelfApproval: false,
    paths: [{ patterns: ["migrations/*"], reviewers: ["olive@example.com"], approvals: 1 }],
  });
  const started = await api.call(
    "POST",
    "/api/sessions",
    {
      workspace: api.workspace,
      model: "scripted",
      mode: "plan",
      // bypassPermissions is chosen after the approval (an owner's act), before the next turn writes.
      script: [
        exitWith("# Plan\n\n1. Change src/app.ts\n"),
        ...(later ? [{ text: "approved" }] : []),
        ...steps,
        { text: "done" },
      ],
    },
    sam,
  );
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const id = started.body.session.id as string;
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan it" }, sam);
  const reviewId = await awaitReview(api, id);
  // The starter may not approve their own plan here; Bo's approval meets the policy but not Olive's rule.
  expect(
    (await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve", mode: approveInto }, sam))
      .status,
  ).toBe(403);
  const ok = await api.call(
    "POST",
    `/api/reviews/${reviewId}/decision`,
    { decision: "approve", mode: approveInto },
    bo,
  );
  expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  if (later) {
    expect((await settle(api, id)).status).toBe("idle");
    const chosen = await api.call("POST", `/api/sessions/${id}/mode`, { mode }, owner);
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go on" }, sam);
  }
  expect((await settle(api, id)).status).toBe("awaiting_permission");
  const pending = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions;
  expect(pending).toHaveLength(1);
  return { id, ask: pending[0] as { id: string; metadata: Record<string, unknown> }, olive, sam, bo, owner };
}
const reply = (askId: string, body: Record<string, unknown>, as: As) =>
  api.call("POST", `/api/permissions/${askId}/reply`, body, as);

describe("a held path belongs to its owners (class 7)", () => {
  it("the starter's and another reviewer's 'once' are 403 and nothing is written; 'always' is never offered; Olive's 'once' writes", async () => {
    const { id, ask, olive, sam, bo } = await heldSession([write()]);
    // The card and the desk say who may answer.
    expect(ask.metadata).toMatchObject({
      control: true,
      heldFor: [{ pattern: "migrations/*", reviewers: ["olive@example.com"] }],
    });
    const desk = (as: As) => api.call("GET", "/api/desk", undefined, as).then((r) => r.body.items);
    const onDesk = (await desk(sam)).find((i: { id: string }) => i.id === ask.id);
    expect(onDesk).toMatchObject({ needs: expect.stringContaining("olive@example.com"), mine: false });
    expect((await desk(olive)).find((i: { id: string }) => i.id === ask.id)).toMatchObject({ mine: true });

    for (const as of [sam, bo]) {
      const res = await reply(ask.id, { reply: "once" }, as);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error.message).toMatch(/olive@example\.com/);
    }
    expect(written()).toBe(false);
    const always = await reply(ask.id, { reply: "always" }, olive);
    expect(always.status).toBe(400);
    expect(await api.t.db.permissionGrant.count()).toBe(0);
    expect((await api.call("GET", `/api/sessions/${id}`)).body.state.status).toBe("awaiting_permission");

    const ok = await reply(ask.id, { reply: "once" }, olive);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await settle(api, id)).status).toBe("idle");
    expect(fs.readFileSync(path.join(api.workspace, DROP), "utf8")).toBe("DROP TABLE users;\n");
  });

  it("an owner's override without a reason is 400; with one it writes, signed and audited with the reason", async () => {
    const { id, ask, owner } = await heldSession([write()]);
    const bare = await reply(ask.id, { reply: "once" }, owner);
    expect(bare.status).toBe(400);
    expect(bare.body.error.message).toMatch(/reason/);
    expect(written()).toBe(false);
    const res = await reply(ask.id, { reply: "once", reason: "Olive is on leave; the drop is agreed in #db" }, owner);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await settle(api, id)).status).toBe("idle");
    expect(written()).toBe(true);
    const audit = await api.t.db.auditEntry.findMany({ where: { subject: ask.id }, orderBy: { at: "asc" } });
    expect(audit.map((a) => [a.kind, a.userId]).sort()).toEqual([
      ["permission.once", owner.userId],
      ["permission.overridden", owner.userId],
    ]);
    const override = audit.find((a) => a.kind === "permission.overridden");
    expect(JSON.parse(override?.detail ?? "{}")).toMatchObject({
      reason: "Olive is on leave; the drop is agreed in #db",
      heldFor: [{ pattern: "migrations/*", reviewers: ["olive@example.com"] }],
    });
    const replied = ofType(await readEvents(api.t.db, id), "permission.replied").at(-1);
    expect(replied?.by).toMatch(/overriding the review policy: Olive is on leave/);
  });

  it("in bypassPermissions the held write still asks, and only Olive answers it", async () => {
    const { id, ask, sam, olive } = await heldSession([write()], "bypassPermissions");
    expect(written()).toBe(false);
    expect((await reply(ask.id, { reply: "once" }, sam)).status).toBe(403);
    expect(written()).toBe(false);
    expect((await reply(ask.id, { reply: "once" }, olive)).status).toBe(200);
    expect((await settle(api, id)).status).toBe("idle");
    expect(written()).toBe(true);
  });

  it("a shell command that may write a held pattern no folder holds asks, and the starter's 'once' is 403", async () => {
    await api.close();
    api = testApi({
      env: { PLANGATE_ENABLE_BYPASS: "1" },
      files: { ".plangate/config.json": JSON.stringify({ permission: { bash: { "*": "allow" } } }) },
    });
    const shown = await api.call("GET", `/api/workspaces/trust?workspace=${encodeURIComponent(api.workspace)}`);
    await api.call("POST", "/api/workspaces/trust", { workspace: api.workspace, hash: shown.body.hash });
    const { id, ask, sam, olive } = await heldSession([
      call("bash", { command: "mkdir -p migrations && echo 'DROP TABLE users;' > migrations/001_drop.sql" }),
    ]);
    expect(ask.metadata).toMatchObject({ heldFor: [{ pattern: "migrations/*", reviewers: ["olive@example.com"] }] });
    expect((await reply(ask.id, { reply: "once" }, sam)).status).toBe(403);
    expect(written()).toBe(false);
    expect((await reply(ask.id, { reply: "once" }, olive)).status).toBe(200);
    expect((await settle(api, id)).status).toBe("idle");
    expect(written()).toBe(true);
  });
});

// A subagent: the parent's held patterns bind the child (it writes in the same workspace, in the parent's mode).
describe("a subagent of a held session (class 7)", () => {
  it("the child's write to a held path asks, and the starter's 'once' is 403", async () => {
    await person("reviewer", "olive@example.com");
    const sam = await person("reviewer", "sam@example.com");
    const bo = await person("reviewer", "bo@example.com");
    await setPolicy({ paths: [{ patterns: ["migrations/*"], reviewers: ["olive@example.com"], approvals: 1 }] });
    const id = await startScripted(
      api,
      [
        exitWith("# Plan\n\n1. Change src/app.ts\n"),
        call("task", { agent: "general", prompt: "write the migration", script: [write(), { text: "child done" }] }),
        { text: "done" },
      ],
      { mode: "plan" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan it" }, sam);
    const reviewId = await awaitReview(api, id);
    const ok = await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve", mode: "auto" }, bo);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const child = await waitFor("the subagent", () => api.t.db.session.findFirst({ where: { parentId: id } }), 20_000);
    const asked = await waitFor(
      "the child's ask",
      async () =>
        (await api.call("GET", `/api/permissions?sessionId=${child.id}&status=pending`)).body.permissions[0] as
          | { id: string; metadata: Record<string, unknown> }
          | undefined,
      20_000,
    );
    expect(asked.metadata).toMatchObject({ heldFor: [{ pattern: "migrations/*", reviewers: ["olive@example.com"] }] });
    expect((await reply(asked.id, { reply: "once" }, sam)).status).toBe(403);
    expect(written()).toBe(false);
  });
});
