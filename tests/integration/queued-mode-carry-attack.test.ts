import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { signedInCookie } from "../helpers/people";

/*
 * Adversary, issue 41 class 2 ("a mode that answers asks is a decision"; "a carried-over mode the person may not
 * choose becomes default"). The carried mode is checked (resumeMode), but a *queued* mode choice is carried as it
 * is: `mode.queued` survives an import (the file's own event) and a fork (copied from the source's log), and the
 * next turn's first step boundary applies it. A member thereby works in acceptEdits: the agent writes unasked.
 */
let api: Api;
afterEach(async () => {
  await api?.close();
});

type Exported = {
  format: string;
  session: Record<string, unknown>;
  events: { seq: number; type: string; payload: Record<string, unknown>; at?: string }[];
};

describe("a queued mode is carried past the mode check", () => {
  it("a member imports a log that ends with a queued acceptEdits: the next turn writes without asking", async () => {
    api = testApi();
    const mia = await signedInCookie(api.t.db, "mia@example.com", [{ root: "/", role: "member" }]);
    // A real export of an ordinary default-mode session (its first turn only said hello).
    const base = await startScripted(api, [
      { text: "hello" },
      call("write", { path: "pwned-by-import.txt", content: "written without asking\n" }),
      { text: "done" },
    ]);
    await api.call("POST", `/api/sessions/${base}/messages`, { text: "hi" });
    expect((await settle(api, base)).status).toBe("idle");
    const file = (await api.call("GET", `/api/sessions/${base}/export?format=json`)).body as Exported;
    // The forged tail: a turn the file leaves open, with a mode choice queued in it.
    const tail = [
      { type: "turn.started", payload: { turnId: "trn_forgedturn0000000001" } },
      { type: "mode.queued", payload: { target: "acceptEdits", cause: "user" } },
    ];
    for (const e of tail) file.events.push({ ...e, seq: file.events.length + 1 });

    const as = { cookie: mia.cookie };
    const imported = await api.call("POST", "/api/sessions/import", file, as);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const id = imported.body.session.id as string;
    // The member could not have chosen acceptEdits herself.
    expect((await api.call("POST", `/api/sessions/${id}/mode`, { mode: "acceptEdits" }, as)).status).toBe(403);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go on" }, as);
    const { status } = await settle(api, id);
    const state = (await api.call("GET", `/api/sessions/${id}`, undefined, as)).body.state;
    // Nothing was written without a person: the write asked (the session is in default).
    expect(fs.existsSync(path.join(api.workspace, "pwned-by-import.txt"))).toBe(false);
    expect(status).toBe("awaiting_permission");
    expect(state.mode).toBe("default");
  });

  // Held when tried (the fork drops the source's queued choice); kept as a guard.
  it("a member forks a reviewer's session while the reviewer's acceptEdits is queued: the fork still asks", async () => {
    api = testApi();
    const rob = await signedInCookie(api.t.db, "rob@example.com", [{ root: "/", role: "reviewer" }]);
    const mia = await signedInCookie(api.t.db, "mia@example.com", [{ root: "/", role: "member" }]);
    // Rob's session waits on an ask (its turn open); Rob chooses acceptEdits for it, which is queued.
    const started = await api.call(
      "POST",
      "/api/sessions",
      {
        workspace: api.workspace,
        model: "scripted",
        script: [
          call("bash", { command: "touch rob-was-asked" }),
          call("write", { path: "pwned-by-fork.txt", content: "written without asking\n" }),
          { text: "done" },
        ],
      },
      { cookie: rob.cookie },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const source = started.body.session.id as string;
    await api.call("POST", `/api/sessions/${source}/messages`, { text: "go" }, { cookie: rob.cookie });
    expect((await settle(api, source)).status).toBe("awaiting_permission");
    const chosen = await api.call(
      "POST",
      `/api/sessions/${source}/mode`,
      { mode: "acceptEdits" },
      { cookie: rob.cookie },
    );
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.outcome).toBe("queued");

    // Mia forks it (the fork is hers) and sends a message.
    const as = { cookie: mia.cookie };
    const forked = await api.call("POST", `/api/sessions/${source}/fork`, {}, as);
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    const id = forked.body.session.id as string;
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go on" }, as);
    const { status } = await settle(api, id);
    const state = (await api.call("GET", `/api/sessions/${id}`, undefined, as)).body.state;
    expect(state.mode).toBe("default");
    expect(status).toBe("awaiting_permission");
    expect(fs.existsSync(path.join(api.workspace, "pwned-by-fork.txt"))).toBe(false);
  });
});
