import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { awaitReview, call, settle, testApi, type Api, type Step } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";
import { sandboxForSuite } from "../helpers/sandbox";

/*
 * Adversary, issue 41 class 7 ("a held path belongs to its reviewers") through the shell. A policy holds a folder's
 * files for Olive; Bo approves a plan naming other files. The file tools' writes under it ask, and only Olive answers.
 * The shell holds an existing held folder by binding it read-only, but:
 *  1. only while the command is "guarded": a command a person approved once (asWritten) runs with the held folder
 *     writable, and anyone who answers asks (the starter Sam, Bo) may give that "once" — the shell's ask is not
 *     marked held when the folder exists;
 *  2. bypassPermissions runs every command as written: the held folder is writable and nobody is asked;
 *  3. in auto mode (guarded), the read-only bind is on the held folder only: renaming its parent moves the mount
 *     away, and a fresh folder made in its place is written. Nothing checks the held paths after the command.
 */
sandboxForSuite();
let api: Api;
afterEach(async () => {
  await api?.close();
});
const { person, setPolicy } = policyKit(() => api);

const DROP = "DROP TABLE users;\n";

/** Sam's session; Olive holds `held`; Bo approves a plan naming src/app.ts into `mode`; then `steps` run. */
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
  const ok = await api.call(
    "POST",
    `/api/reviews/${reviewId}/decision`,
    { decision: "approve", mode: mode === "bypassPermissions" ? "default" : mode },
    bo,
  );
  expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  return { id, olive, sam, bo };
}

describe("a held folder written through the shell", () => {
  it("the starter answers the shell's ask 'once': the command writes the held path (Olive never asked)", async () => {
    api = testApi({ files: { "migrations/000_init.sql": "CREATE TABLE users (id int);\n", "src/app.ts": "x\n" } });
    const { id, sam } = await heldSession("migrations/*", "acceptEdits", [
      call("bash", { command: `printf '${DROP.trim()}\\n' > migrations/001_drop.sql` }),
    ]);
    expect((await settle(api, id)).status).toBe("awaiting_permission");
    const [ask] = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions;
    expect(ask.permission).toBe("bash");
    const res = await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" }, sam);
    await settle(api, id);
    // Either Sam is refused, or the command ran with the held folder still read-only: the file is not there.
    expect(fs.existsSync(path.join(api.workspace, "migrations/001_drop.sql"))).toBe(false);
    expect(res.status).toBe(403);
  });

  it("in bypassPermissions the shell writes the held path and nobody is asked", async () => {
    api = testApi({
      env: { PLANGATE_ENABLE_BYPASS: "1" },
      files: { "migrations/000_init.sql": "CREATE TABLE users (id int);\n", "src/app.ts": "x\n" },
    });
    const owner = await person("owner", "owner@example.com");
    const { id, sam } = await heldSession("migrations/*", "bypassPermissions", [
      { text: "approved" },
      call("bash", { command: `printf '${DROP.trim()}\\n' > migrations/001_drop.sql` }),
    ]);
    expect((await settle(api, id)).status).toBe("idle");
    const chosen = await api.call("POST", `/api/sessions/${id}/mode`, { mode: "bypassPermissions" }, owner);
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go on" }, sam);
    const { status } = await settle(api, id);
    expect(fs.existsSync(path.join(api.workspace, "migrations/001_drop.sql"))).toBe(false);
    expect(status).toBe("awaiting_permission");
  });

  it("in auto mode, renaming the held folder's parent and making it again writes the held path", async () => {
    api = testApi({
      env: { PLANGATE_AUTO_GATE: "open" },
      files: { "db/migrations/000_init.sql": "CREATE TABLE users (id int);\n", "src/app.ts": "x\n" },
    });
    const { id } = await heldSession("db/migrations/*", "auto", [
      call("bash", {
        command: `mv db db-moved && mkdir -p db/migrations && printf '${DROP.trim()}\\n' > db/migrations/001_drop.sql && cp db-moved/migrations/000_init.sql db/migrations/`,
      }),
    ]);
    await settle(api, id);
    const events = JSON.stringify(await api.t.db.sessionEvent.findMany({ where: { sessionId: id } }));
    expect(fs.existsSync(path.join(api.workspace, "db/migrations/001_drop.sql")), events.slice(-1500)).toBe(false);
  });
});

/*
 * A policy's paths are held only once a plan was approved: a session that never plans (default mode, a member's)
 * asks to write `migrations/001_drop.sql`, and any reviewer's "once" writes it. Olive, whose path it is, is never
 * asked; the card names nobody. (SECURITY.md conditions the hold on an approval; the principle "a held path belongs
 * to its owners" is then skipped by not planning.)
 */
describe("a policy's path in a session that never planned", () => {
  it("a member's default-mode write to migrations/ is answered by Bo, not Olive", async () => {
    api = testApi({ files: { "src/app.ts": "x\n" } });
    const { person: someone, setPolicy: policy } = policyKit(() => api);
    await someone("reviewer", "olive@example.com");
    const bo = await someone("reviewer", "bo@example.com");
    const mia = await someone("member", "mia@example.com");
    await policy({
      allowSelfApproval: false,
      paths: [{ patterns: ["migrations/*"], reviewers: ["olive@example.com"], approvals: 1 }],
    });
    const started = await api.call(
      "POST",
      "/api/sessions",
      {
        workspace: api.workspace,
        model: "scripted",
        script: [call("write", { path: "migrations/001_drop.sql", content: DROP }), { text: "done" }],
      },
      mia,
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const id = started.body.session.id as string;
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" }, mia);
    expect((await settle(api, id)).status).toBe("awaiting_permission");
    const [ask] = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions;
    const res = await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" }, bo);
    await settle(api, id);
    expect(fs.existsSync(path.join(api.workspace, "migrations/001_drop.sql"))).toBe(false);
    expect(res.status).toBe(403);
  });
});
