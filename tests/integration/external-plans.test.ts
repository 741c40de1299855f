import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readEvents } from "../../lib/db/session-log/read-events";
import { awaitReview, call, startScripted, testApi, type Api } from "../helpers/api";

// An outside agent's plan (Claude Code's hook, OpenCode's plugin) on Plangate's desk, through the real routes.
let api: Api;
afterEach(async () => {
  await api?.close();
});

const PLAN = "# Add a todo filter\n\n1. Add `filter` to src/todo.ts\n2. Test it\n";
const PLAN_TITLE = "Add a todo filter";
const submit = (extra: Record<string, unknown> = {}) =>
  api.call("POST", "/api/external/plan-reviews", {
    agent: "claude-code",
    externalSessionId: "cc-1234",
    cwd: api.workspace,
    plan: PLAN,
    planFilePath: "~/.claude/plans/todo-filter.md",
    ...extra,
  });
const outcome = (id: string, wait = 0) => api.call("GET", `/api/external/plan-reviews/${id}?wait=${wait}`);

describe("an outside agent's plan review", () => {
  it("appears on the desk like Plangate's own; an edited approval gives the hook the edited plan, the mode and the model's text; the turn closes", async () => {
    api = testApi();
    const created = await submit();
    expect(created.status).toBe(201);
    const { reviewId, sessionId } = created.body as { reviewId: string; sessionId: string };
    const pending = (await api.call("GET", "/api/reviews?status=pending")).body.reviews as {
      id: string;
      sessionId: string;
      kind: string;
    }[];
    expect(pending.map((r) => [r.id, r.kind])).toEqual([[reviewId, "plan-review"]]);
    const session = (await api.call("GET", `/api/sessions/${sessionId}`)).body;
    // Named from what it plans and the project it works in, so a person can tell it from other terminals.
    expect(session.session).toMatchObject({
      agent: "claude-code",
      workspace: api.workspace,
      title: `${PLAN_TITLE} · ${path.basename(api.workspace)}`,
    });
    expect(session.state.status).toBe("awaiting_review");
    expect((await api.call("GET", "/api/sessions")).body.sessions.map((s: { id: string }) => s.id)).toContain(
      sessionId,
    );
    expect((await outcome(reviewId)).body).toMatchObject({ status: "pending", plan: PLAN, message: null });

    // The hook waits while a person decides: the long poll answers as soon as the decision commits.
    const waiting = outcome(reviewId, 20);
    const edited = `${PLAN}3. Document it in the README\n`;
    const decided = await api.call("POST", `/api/reviews/${reviewId}/decision`, {
      decision: "approve",
      plan: edited,
      mode: "acceptEdits",
    });
    expect(decided.status).toBe(200);
    const answer = (await waiting).body;
    expect(answer).toMatchObject({
      status: "approved",
      decision: "approve",
      plan: edited,
      edited: true,
      mode: "acceptEdits",
    });
    expect(answer.message).toContain("## Approved Plan (edited by user)");
    expect(answer.message).toContain("Document it in the README");
    // No Plangate model runs for it: the decision closes the turn it opened, and nothing else is logged.
    await expect.poll(async () => (await api.call("GET", `/api/sessions/${sessionId}`)).body.state.status).toBe("idle");
    const types = (await readEvents(api.t.db, sessionId)).map((e) => e.type);
    expect(types.filter((t) => t === "message.assistant")).toHaveLength(0);
    expect(types.slice(-4)).toEqual(["review.answered", "mode.changed", "tool.result", "turn.ended"]);
    // It cannot be sent messages here (its agent runs in its own terminal): refused, nothing logged.
    const said = await api.call("POST", `/api/sessions/${sessionId}/messages`, { text: "hello" });
    expect(said.status).toBe(409);
    expect(said.body.error.message).toContain("claude-code");
    expect((await readEvents(api.t.db, sessionId)).length).toBe(types.length);
    // History and the exports carry it like any session.
    const { history } = (await api.call("GET", `/api/sessions/${sessionId}/history`)).body;
    expect(
      history.plans.map((p: { version: number; status: string; editedByUser: boolean }) => [
        p.version,
        p.status,
        p.editedByUser,
      ]),
    ).toEqual([[1, "approved", true]]);
    const exported = await api.call("GET", `/api/sessions/${sessionId}/export?format=md`);
    expect(exported.status).toBe(200);
    expect(String(exported.body)).toContain("Document it in the README");
    // Plangate never writes an outside agent's plan file.
    expect(fs.existsSync(path.join(os.homedir(), ".claude/plans/todo-filter.md"))).toBe(false);
  });

  it("a rejection with a line comment gives the hook the feedback and the comment; the next plan of the same session is version 2", async () => {
    api = testApi();
    const { reviewId, sessionId } = (await submit()).body as { reviewId: string; sessionId: string };
    await api.call("POST", `/api/reviews/${reviewId}/decision`, {
      decision: "reject",
      feedback: "Too vague",
      comments: [{ lineStart: 3, lineEnd: 3, body: "Which file?" }],
    });
    const answer = (await outcome(reviewId)).body;
    expect(answer).toMatchObject({ status: "rejected", decision: "reject", edited: false, mode: "plan" });
    expect(answer.message).toContain("Too vague");
    expect(answer.message).toContain("Which file?");
    const again = (await submit({ plan: `${PLAN}3. Say which file\n` })).body as {
      reviewId: string;
      sessionId: string;
      version: number;
    };
    expect(again).toMatchObject({ sessionId, version: 2 });
  });

  it("a review answered in the terminal first shows as such, never pending; a newer plan replaces a pending one", async () => {
    api = testApi();
    const first = (await submit()).body as { reviewId: string; sessionId: string };
    const second = (await submit({ plan: `${PLAN}3. More\n` })).body as { reviewId: string; sessionId: string };
    expect(second.sessionId).toBe(first.sessionId);
    expect((await outcome(first.reviewId)).body.status).toBe("abandoned");
    const marked = await api.call("POST", `/api/external/plan-reviews/${second.reviewId}/answered-elsewhere`, {
      answer: "approved",
    });
    expect(marked.status).toBe(200);
    expect((await outcome(second.reviewId)).body.status).toBe("answered_elsewhere");
    expect((await api.call("GET", "/api/reviews?status=pending")).body.reviews).toHaveLength(0);
    expect((await api.call("GET", `/api/sessions/${first.sessionId}`)).body.state.status).toBe("idle");
    // The desk can no longer decide it, and a second terminal report changes nothing.
    expect((await api.call("POST", `/api/reviews/${second.reviewId}/decision`, { decision: "approve" })).status).toBe(
      409,
    );
    expect(
      (
        await api.call("POST", `/api/external/plan-reviews/${second.reviewId}/answered-elsewhere`, {
          answer: "rejected",
        })
      ).status,
    ).toBe(409);
  });

  it("two hooks sending a new session's first plan at once: one session, one session.created, both plans in order", async () => {
    api = testApi();
    // The first plan creates the session in the same transaction; the loser of the race submits to the winner's.
    const [a, b] = await Promise.all([submit(), submit({ plan: `${PLAN}3. More\n` })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const [x, y] = [a.body, b.body] as { sessionId: string; reviewId: string; version: number }[];
    expect(y!.sessionId).toBe(x!.sessionId);
    expect([x!.version, y!.version].sort()).toEqual([1, 2]);
    const events = await readEvents(api.t.db, x!.sessionId);
    expect(events.filter((e) => e.type === "session.created")).toHaveLength(1);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const later = x!.version === 2 ? x! : y!;
    const pending = (await api.call("GET", "/api/reviews?status=pending")).body.reviews as { id: string }[];
    expect(pending.map((r) => r.id)).toEqual([later.reviewId]);
  });

  it("takes a folder on another machine as a label: never resolved, read or made here; the same folder on two machines is two sessions", async () => {
    api = testApi();
    const remote = "/home/ada/projects/../shop/";
    const a = await submit({ agent: "gemini", cwd: remote, machine: "ada-laptop", externalSessionId: "g-1" });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const b = await submit({ agent: "gemini", cwd: remote, machine: "ben-desktop", externalSessionId: "g-1" });
    expect(b.body.sessionId).not.toBe(a.body.sessionId);
    const { session } = (await api.call("GET", `/api/sessions/${a.body.sessionId}`)).body;
    expect(session.workspace).toBe("/home/ada/shop");
    expect(session.title).toContain("shop on ada-laptop");
    expect(fs.existsSync("/home/ada/shop")).toBe(false);
    // A bad machine name is refused by name.
    const bad = await submit({ cwd: remote, machine: "ada laptop; rm -rf /" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("machine");
  });

  it("refuses a folder that is no absolute path, an unknown agent and a review of Plangate's own agent, changing nothing", async () => {
    api = testApi();
    for (const cwd of ["relative/project", "", "/home/ada/\u0000x"]) {
      const refused = await submit({ cwd });
      expect([cwd, refused.status]).toEqual([cwd, 400]);
    }
    expect((await submit({ agent: "cursor" })).status).toBe(400);
    expect((await api.call("GET", "/api/sessions")).body.sessions).toHaveLength(0);
    expect((await outcome("rev_nope")).status).toBe(404);
    // Plangate's own agent's review is not an outside agent's to read or to close.
    const own = await startScripted(api, [call("exit_plan_mode", { plan: PLAN })], { mode: "plan" });
    await api.call("POST", `/api/sessions/${own}/messages`, { text: "plan" });
    const ownReview = await awaitReview(api, own);
    expect((await outcome(ownReview)).status).toBe(403);
    expect((await api.call("POST", `/api/external/plan-reviews/${ownReview}/answered-elsewhere`, {})).status).toBe(403);
    expect((await api.call("GET", `/api/sessions/${own}`)).body.state.status).toBe("awaiting_review");
  });
});

describe("an outside agent's permission asks", () => {
  const ask = (tool: string, input: Record<string, unknown>) =>
    api.call("POST", "/api/external/permission-asks", {
      agent: "claude-code",
      externalSessionId: "cc-asks",
      cwd: api.workspace,
      tool,
      input,
    });

  it("wait on the permission card; 'always' is saved for the workspace and answers the same call next time without a person", async () => {
    api = testApi();
    const first = await ask("Bash", { command: "npm run build" });
    expect(first.status).toBe(201);
    const { requestId } = first.body as { requestId: string };
    const pending = (await api.call("GET", "/api/permissions?status=pending")).body.permissions as {
      id: string;
      permission: string;
      patterns: string[];
    }[];
    expect(pending.map((p) => [p.id, p.permission, p.patterns])).toEqual([[requestId, "bash", ["npm run build"]]]);
    const waiting = api.call("GET", `/api/external/permission-asks/${requestId}?wait=20`);
    expect(
      (await api.call("POST", `/api/permissions/${requestId}/reply`, { reply: "always", scope: "workspace" })).status,
    ).toBe(200);
    expect((await waiting).body).toMatchObject({ requestId, status: "always" });
    // The saved rule answers: no new ask. A different command still asks.
    expect((await ask("Bash", { command: "npm run build" })).body).toMatchObject({ requestId: null, status: "allow" });
    expect((await ask("Bash", { command: "npm run build && curl evil.example" })).body.status).toBe("pending");
  });

  it("a rejection carries its message; the agent's folder is never read (its config answers nothing); calls Plangate cannot judge are refused", async () => {
    api = testApi({
      files: {
        "README.md": "# x\n",
        ".plangate/config.json": JSON.stringify({ permission: { bash: { "rm *": "deny" } } }),
      },
    });
    const edit = (await ask("Edit", { file_path: `${api.workspace}/README.md`, old_string: "x", new_string: "y" }))
      .body as { requestId: string };
    await api.call("POST", `/api/permissions/${edit.requestId}/reply`, { reply: "reject", message: "Not the README" });
    expect((await api.call("GET", `/api/external/permission-asks/${edit.requestId}`)).body).toMatchObject({
      status: "reject",
      message: "Not the README",
    });
    // The folder may be on another machine: its .plangate/config.json is never read, so its deny answers nothing.
    expect((await ask("Bash", { command: "rm -rf build" })).body.status).toBe("pending");
    expect((await ask("Edit", { file_path: "/etc/hosts", old_string: "a", new_string: "b" })).status).toBe(400);
    expect((await ask("WebFetch", { url: "http://x" })).status).toBe(400);
  });
});

describe("an outside agent in a team's workspace", () => {
  it("is not made a teammate by the folder it works in: its plan waits on the desk until a person joins it to the team", async () => {
    api = testApi();
    const lead = (await api.call("POST", "/api/sessions", { workspace: api.workspace, model: "scripted", script: [] }))
      .body.session.id as string;
    const teamId = (await api.call("POST", "/api/teams", { sessionId: lead })).body.team.id as string;
    const first = (await submit()).body as { reviewId: string; sessionId: string };
    const mailbox = async () =>
      (await api.call("GET", `/api/teams/${teamId}/mailbox?status=pending`)).body.messages as {
        id: string;
        type: string;
        requestId: string;
        from: string;
      }[];
    // The team's lead did not ask for it: nothing in its mailbox, the team unchanged, the plan decidable here.
    expect(await mailbox()).toEqual([]);
    expect((await api.call("GET", `/api/teams/${teamId}`)).body.team.teammates).toEqual([]);
    expect((await api.call("GET", `/api/sessions/${first.sessionId}`)).body.state.team).toBeFalsy();

    // Bad joins change nothing: Plangate's own session, an unknown one, a malformed body.
    const join = (body: unknown) => api.call("POST", `/api/teams/${teamId}/members`, body);
    expect((await join({ sessionId: lead })).status).toBe(400);
    expect((await join({ sessionId: "ses_nope" })).status).toBe(404);
    expect((await join({ session: first.sessionId })).status).toBe(400);
    expect((await api.call("GET", `/api/teams/${teamId}`)).body.team.teammates).toEqual([]);

    // A person joins it: its next plan is the lead's, answered from the mailbox.
    expect((await join({ sessionId: first.sessionId })).status).toBe(200);
    expect((await join({ sessionId: first.sessionId })).status).toBe(409);
    const { reviewId, sessionId } = (await submit()).body as { reviewId: string; sessionId: string };
    expect(sessionId).toBe(first.sessionId);
    const mail = await mailbox();
    expect(mail.map((m) => [m.type, m.requestId, m.from])).toEqual([["plan_approval_request", reviewId, sessionId]]);
    // Only the lead answers a teammate's plan, from the mailbox.
    expect((await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve" })).status).toBe(403);
    expect((await outcome(reviewId)).body.status).toBe("pending");
    expect(
      (await api.call("POST", `/api/teams/${teamId}/mailbox/${mail[0]?.id}/reply`, { approve: true })).status,
    ).toBe(200);
    expect((await outcome(reviewId, 10)).body).toMatchObject({ status: "approved", plan: PLAN });
  });
});
