import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readEvents } from "../../lib/db/session-log/read-events";
import { awaitReview, settle, startScripted, testApi, trustWorkspaceConfig, type Api } from "../helpers/api";
import { exitWith, ofType } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";

// Issue 27, on both engines: after an approval, the agent's work is held to it. Each case is the attempt to change
// a file under a rule whose reviewers did not approve, then the check that the file is unchanged.
let api: Api;
beforeEach(() => {
  api = testApi();
});
afterEach(async () => {
  await api?.close();
});
const { person, setPolicy } = policyKit(() => api);

/** A workspace whose trusted config allows every command: only the hold stands between the agent and the files. */
async function allowingEveryCommand(files: Record<string, string> = {}) {
  await api.close();
  api = testApi({
    files: { ".plangate/config.json": JSON.stringify({ permission: { bash: { "*": "allow" } } }), ...files },
  });
  await trustWorkspaceConfig(api, api.workspace);
}

const sh = (command: string) => ({ toolCalls: [{ name: "bash", input: { command } }] });

describe("held to the approval", () => {
  it("after it, a write under a rule whose reviewers did not approve asks, and nothing is written", async () => {
    await person("reviewer", "dba@example.com");
    await setPolicy({ paths: [{ patterns: ["prisma/migrations/*"], reviewers: ["dba@example.com"], approvals: 1 }] });
    const write = (p: string) => ({ toolCalls: [{ name: "write", input: { path: p, content: "x\n" } }] });
    const sessionId = await startScripted(
      api,
      [
        exitWith("# Plan\n\n1. Change src/app.ts\n"),
        write("src/app.ts"),
        write("prisma/migrations/x.sql"),
        { text: "done" },
      ],
      { mode: "plan" },
    );
    await api.call("POST", `/api/sessions/${sessionId}/messages`, { text: "plan it" });
    const reviewId = await awaitReview(api, sessionId);
    // The plan names no migration: Bo's approval meets the policy, but the database reviewers approved nothing.
    const bo = await person();
    const ok = await api.call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      { decision: "approve", mode: "acceptEdits" },
      bo,
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const { status: after } = await settle(api, sessionId);
    expect(after).toBe("awaiting_permission");
    expect(fs.readFileSync(path.join(api.workspace, "src/app.ts"), "utf8")).toBe("x\n");
    expect(fs.existsSync(path.join(api.workspace, "prisma/migrations/x.sql"))).toBe(false);
    const asked = ofType(await readEvents(api.t.db, sessionId), "permission.asked");
    expect(asked.map((a) => a.patterns)).toEqual([["prisma/migrations/x.sql"]]);
    const answered = ofType(await readEvents(api.t.db, sessionId), "review.answered");
    expect(answered[0]?.held).toEqual(["prisma/migrations/*"]);
  });

  it("a shell command the workspace allows runs with the held folder read-only (the real sandbox)", async () => {
    await api.close();
    api = testApi({
      files: {
        ".plangate/config.json": JSON.stringify({ permission: { bash: { "*": "allow" } } }),
        "prisma/migrations/0001.sql": "-- first\n",
      },
    });
    await trustWorkspaceConfig(api, api.workspace);
    await setPolicy({ paths: [{ patterns: ["prisma/migrations/*"], reviewers: ["dba@example.com"], approvals: 1 }] });
    const sh = (command: string) => ({ toolCalls: [{ name: "bash", input: { command } }] });
    const sessionId = await startScripted(
      api,
      [
        exitWith("# Plan\n\n1. Change src/app.ts\n"),
        // Its text does not name the held folder (one that does asks the folder's reviewers: issue 41).
        sh(
          "d=prisma/migr; d=$d'ations'; mkdir -p src && echo a > src/b.txt; echo b > $d/0002.sql; echo c >> $d/0001.sql",
        ),
        { text: "done" },
      ],
      { mode: "plan" },
    );
    await api.call("POST", `/api/sessions/${sessionId}/messages`, { text: "plan it" });
    const reviewId = await awaitReview(api, sessionId);
    const ok = await api.call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      { decision: "approve", mode: "acceptEdits" },
      await person(),
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    await settle(api, sessionId);
    const result = ofType(await readEvents(api.t.db, sessionId), "tool.result").find((r) => r.tool === "bash");
    expect(JSON.stringify(result)).toMatch(/Read-only file system/);
    expect(fs.readFileSync(path.join(api.workspace, "src/b.txt"), "utf8")).toBe("a\n");
    expect(fs.existsSync(path.join(api.workspace, "prisma/migrations/0002.sql"))).toBe(false);
    expect(fs.readFileSync(path.join(api.workspace, "prisma/migrations/0001.sql"), "utf8")).toBe("-- first\n");
  });
  it("a held pattern no read-only folder can hold (no literal folder, or a folder not made yet) makes a writing command ask", async () => {
    await allowingEveryCommand();
    await setPolicy({
      paths: [
        { patterns: ["**/*.sql"], reviewers: ["dba@example.com"], approvals: 1 },
        { patterns: ["db/migrations/*"], reviewers: ["dba@example.com"], approvals: 1 },
      ],
    });
    const sessionId = await startScripted(
      api,
      [
        exitWith("# Plan\n\n1. Change src/app.ts\n"),
        sh("mkdir -p db/migrations && echo x > db/migrations/1.sql; echo y > a.sql"),
        sh("ls"),
        { text: "done" },
      ],
      { mode: "plan" },
    );
    await api.call("POST", `/api/sessions/${sessionId}/messages`, { text: "plan it" });
    const reviewId = await awaitReview(api, sessionId);
    const ok = await api.call(
      "POST",
      `/api/reviews/${reviewId}/decision`,
      { decision: "approve", mode: "acceptEdits" },
      await person(),
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // The workspace's "allow every command" does not answer it: a person must.
    expect((await settle(api, sessionId)).status).toBe("awaiting_permission");
    expect(fs.existsSync(path.join(api.workspace, "db"))).toBe(false);
    expect(fs.existsSync(path.join(api.workspace, "a.sql"))).toBe(false);
    const asked = ofType(await readEvents(api.t.db, sessionId), "permission.asked");
    expect(asked).toHaveLength(1);
    const pending = (await api.call("GET", `/api/permissions?sessionId=${sessionId}&status=pending`)).body.permissions;
    // The person is told why: the patterns no sandbox could hold.
    expect(pending[0].metadata).toMatchObject({ held: ["**/*.sql", "db/migrations/*"] });

    // Only one of the reviewers the patterns are held for allows it (issue 41), once: then it runs, and the
    // read-only command after it asks nobody.
    const dba = await person("reviewer", "dba@example.com");
    const reply = await api.call("POST", `/api/permissions/${pending[0].id}/reply`, { reply: "once" }, dba);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect((await settle(api, sessionId)).status).toBe("idle");
    expect(fs.readFileSync(path.join(api.workspace, "a.sql"), "utf8")).toBe("y\n");
    expect(ofType(await readEvents(api.t.db, sessionId), "permission.asked")).toHaveLength(1);
  });
});
