import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, settle, testApi, type Api } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";
import { waitFor } from "../helpers/poll";

/*
 * Adversary, issue 41 classes 2 and 4. An owner turned person approval off for Rob's team: Rob's lead model approves
 * *its* teammates' plans, into acceptEdits because Rob (the lead's starter) may choose it. But anyone who may start
 * sessions in the workspace adds teammates to that team (`POST /api/teams/:id/teammates` checks only `start` on the
 * lead), and the teammate is recorded as started by the lead's starter, Rob. A member, Mia, thereby gets a session
 * of hers approved by a model into acceptEdits — the write runs unasked — and it reads as Rob's.
 */
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});
const { person } = policyKit(() => api);
const approve = call("send_message", { type: "plan_approval_response", to: "mallory", approve: true });

describe("a member adds a teammate to someone else's team", () => {
  it("Mia's teammate in Rob's team (person approval off) is approved by the lead's model and writes unasked", async () => {
    const rob = await person("reviewer", "rob@example.com");
    const owner = await person("owner", "owner@example.com");
    const mia = await person("member", "mia@example.com");
    const started = await api.call(
      "POST",
      "/api/sessions",
      { workspace: api.workspace, model: "scripted", mode: "acceptEdits", script: [approve, { text: "answered" }] },
      rob,
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const lead = started.body.session.id as string;
    const team = await api.call(
      "POST",
      "/api/teams",
      { sessionId: lead, name: "rob's crew", personApproval: false },
      owner,
    );
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const teamId = team.body.team.id as string;

    // Mia, a member, adds her own teammate to Rob's team.
    const added = await api.call(
      "POST",
      `/api/teams/${teamId}/teammates`,
      {
        name: "mallory",
        task: "tidy up",
        requirePlanApproval: true,
        script: [
          exitWith("# Tidy\n\n1. Tidy the readme.\n"),
          call("write", { path: "mallory-was-here.txt", content: "written without asking\n" }),
          { text: "ok" },
        ],
      },
      mia,
    );
    // The promise: only the lead's people add teammates (or the teammate is Mia's and decides nothing more).
    if (added.status === 201) {
      const mate = added.body.sessionId as string;
      // Her plan goes to the lead's mailbox; the lead's model may already be answering it.
      await waitFor("mallory's plan request", async () => (await api.t.db.mailboxMessage.count()) > 0, 20_000).catch(
        () => undefined,
      );
      // The lead's model is woken by the request (or by Rob, who gives it a turn) and answers.
      await api.call("POST", `/api/sessions/${lead}/messages`, { text: "answer your mail" }, rob);
      await settle(api, lead).catch(() => undefined);
      await settle(api, mate).catch(() => undefined);
      const row = await api.t.db.session.findUnique({ where: { id: mate }, select: { startedBy: true } });
      const wrote = fs.existsSync(path.join(api.workspace, "mallory-was-here.txt"));
      expect({ wroteUnasked: wrote, startedBy: row?.startedBy }).toEqual({
        wroteUnasked: false,
        startedBy: mia.userId,
      });
    } else {
      expect(added.status).toBe(403);
    }
  });
});
