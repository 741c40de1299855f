import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { awaitReview, call, results, settle, testApi, type Api, type Step } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";
import { sandboxForSuite } from "../helpers/sandbox";

/*
 * Issue 41, class 7 through the shell, beyond the adversary's cases (held-shell-attack.test.ts): commands that never
 * name the held folder, so that their ask is an ordinary one. Whoever allows them (the starter's "once",
 * bypassPermissions, auto), a held location stays read-only with its parents pinned, and whatever appears at one is
 * quarantined; only the path's owner releases it, for that one command. And a session that never planned is held
 * to the whole policy.
 */
const sandbox = sandboxForSuite();
let api: Api;
afterEach(async () => {
  await api?.close();
});
const { person, setPolicy } = policyKit(() => api);

// The folder's name is built at run time: the command's text names no held path.
const HIDDEN = "x=migr; d=$x'ations'";

async function heldSession(heldPattern: string, mode: string, steps: Step[]) {
  const olive = await person("reviewer", "olive@example.com");
  const sam = await person("reviewer", "sam@example.com");
  const bo = await person("reviewer", "bo@example.com");
  await setPolicy({
    allowSelfApproval: false,
    paths: [{ patterns: [heldPattern], reviewers: ["olive@example.com"], approvals: 1 }],
  });
  const started = await api.call(
    "POST",
    "/api/sessions",
    {
      workspace: api.workspace,
      model: "scripted",
      mode: "plan",
      script: [exitWith("# Plan\n\n1. Change src/app.ts\n"), ...steps, { text: "done" }],
    },
    sam,
  );
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const id = started.body.session.id as string;
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan it" }, sam);
  const reviewId = await awaitReview(api, id);
  const ok = await api.call("POST", `/api/reviews/${reviewId}/decision`, { decision: "approve", mode }, bo);
  expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  return { id, olive, sam, bo };
}

async function pendingAsk(id: string) {
  expect((await settle(api, id)).status).toBe("awaiting_permission");
  const [ask] = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions;
  return ask as { id: string; permission: string; metadata: Record<string, unknown> };
}

const files = { "migrations/000_init.sql": "CREATE TABLE users (id int);\n", "src/app.ts": "x\n" };
const dropped = () => path.join(api.workspace, "migrations/001_drop.sql");

describe.skipIf(!sandbox.available)("a held folder, by a command that does not name it", () => {
  it("the starter's 'once' runs it with the held folder read-only: nothing is written there", async () => {
    api = testApi({ files });
    const { id, sam } = await heldSession("migrations/*", "default", [
      call("bash", { command: `${HIDDEN}; printf 'DROP\\n' > "$d/001_drop.sql"; echo other > src/other.ts` }),
    ]);
    const ask = await pendingAsk(id);
    expect(ask.metadata.heldFor).toBeUndefined();
    expect((await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" }, sam)).status).toBe(200);
    const { events } = await settle(api, id);
    expect(fs.existsSync(dropped())).toBe(false);
    // The rest of the workspace was writable: the command ran, held to the policy.
    expect(fs.readFileSync(path.join(api.workspace, "src/other.ts"), "utf8")).toBe("other\n");
    expect(JSON.stringify(results(events).at(-1))).toContain("Read-only file system");
  });

  it("bypassPermissions runs it as written, and the held folder is still read-only", async () => {
    api = testApi({ env: { PLANGATE_ENABLE_BYPASS: "1" }, files });
    const owner = await person("owner", "owner@example.com");
    const { id, sam } = await heldSession("migrations/*", "default", [
      { text: "approved" },
      call("bash", { command: `${HIDDEN}; printf 'DROP\\n' > "$d/001_drop.sql"` }),
    ]);
    expect((await settle(api, id)).status).toBe("idle");
    const chosen = await api.call("POST", `/api/sessions/${id}/mode`, { mode: "bypassPermissions" }, owner);
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go on" }, sam);
    expect((await settle(api, id)).status).toBe("idle");
    expect(fs.existsSync(dropped())).toBe(false);
  });

  it("in auto mode a parent cannot be renamed away and rebuilt around the held folder", async () => {
    api = testApi({ env: { PLANGATE_AUTO_GATE: "open" }, files: { "db/migrations/000_init.sql": "x\n", "a.ts": "" } });
    const { id } = await heldSession("db/migrations/*", "auto", [
      call("bash", {
        command: `${HIDDEN}; mv db db-moved; mkdir -p "db/$d"; printf 'DROP\\n' > "db/$d/001_drop.sql"; mv "db/$d" m2; ls`,
      }),
    ]);
    const { events } = await settle(api, id);
    expect(fs.existsSync(path.join(api.workspace, "db/migrations/001_drop.sql"))).toBe(false);
    expect(fs.existsSync(path.join(api.workspace, "db-moved"))).toBe(false);
    expect(fs.readFileSync(path.join(api.workspace, "db/migrations/000_init.sql"), "utf8")).toBe("x\n");
    expect(JSON.stringify(results(events).at(-1))).toMatch(/Device or resource busy|Read-only file system/);
  });

  it("a held folder that does not exist yet: what the command makes there is quarantined and the call refused", async () => {
    api = testApi({ env: { PLANGATE_AUTO_GATE: "open" }, files: { "src/app.ts": "x\n" } });
    const { id } = await heldSession("migrations/*", "auto", [
      call("bash", { command: `${HIDDEN}; mkdir "$d" && printf 'DROP\\n' > "$d/001_drop.sql"` }),
    ]);
    const { events } = await settle(api, id);
    expect(fs.existsSync(path.join(api.workspace, "migrations"))).toBe(false);
    const last = results(events).at(-1);
    expect(last?.ok).toBe(false);
    expect(last?.error).toContain("moved to the quarantine");
    const quarantined = fs.readdirSync(path.join(path.dirname(api.workspace), "quarantine"));
    expect(quarantined.length).toBe(1);
  });

  it("the path's owner releases it for that one command: Olive's 'once' writes, the next command is held again", async () => {
    api = testApi({ files });
    const { id, olive, sam } = await heldSession("migrations/*", "default", [
      call("bash", { command: `printf 'DROP\\n' > migrations/001_drop.sql` }),
      call("bash", { command: `${HIDDEN}; printf 'again\\n' > "$d/002_again.sql"` }),
    ]);
    const ask = await pendingAsk(id);
    expect(ask.metadata.heldFor).toEqual([{ pattern: "migrations/*", reviewers: ["olive@example.com"] }]);
    // "always" is never offered for it, and Sam may not answer.
    expect((await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "always" }, olive)).status).toBe(400);
    expect((await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" }, sam)).status).toBe(403);
    expect((await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" }, olive)).status).toBe(200);
    const next = await pendingAsk(id);
    expect(fs.readFileSync(dropped(), "utf8")).toBe("DROP\n");
    expect((await api.call("POST", `/api/permissions/${next.id}/reply`, { reply: "once" }, sam)).status).toBe(200);
    await settle(api, id);
    expect(fs.existsSync(path.join(api.workspace, "migrations/002_again.sql"))).toBe(false);
  });
});

describe("a session that never planned is held to the whole policy", () => {
  it("a reviewer's acceptEdits session: the write asks, Bo is refused, Olive's 'once' writes it", async () => {
    api = testApi({ files: { "src/app.ts": "x\n" } });
    const olive = await person("reviewer", "olive@example.com");
    const bo = await person("reviewer", "bo@example.com");
    await setPolicy({ paths: [{ patterns: ["migrations/*"], reviewers: ["olive@example.com"], approvals: 1 }] });
    const started = await api.call(
      "POST",
      "/api/sessions",
      {
        workspace: api.workspace,
        model: "scripted",
        mode: "acceptEdits",
        script: [
          call("write", { path: "src/free.ts", content: "free\n" }),
          call("write", { path: "migrations/001_drop.sql", content: "DROP\n" }),
          { text: "done" },
        ],
      },
      bo,
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const id = started.body.session.id as string;
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" }, bo);
    const ask = await pendingAsk(id);
    // What the policy does not name is written as the mode allows; the held path waits for its owner.
    expect(fs.readFileSync(path.join(api.workspace, "src/free.ts"), "utf8")).toBe("free\n");
    expect(ask.metadata.heldFor).toEqual([{ pattern: "migrations/*", reviewers: ["olive@example.com"] }]);
    expect((await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" }, bo)).status).toBe(403);
    expect((await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" }, olive)).status).toBe(200);
    await settle(api, id);
    expect(fs.readFileSync(path.join(api.workspace, "migrations/001_drop.sql"), "utf8")).toBe("DROP\n");
  });
});
