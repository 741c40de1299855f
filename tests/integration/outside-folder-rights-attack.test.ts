import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../lib/env";
import { call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { driveAnswering } from "../helpers/boundary";
import { signedInCookie } from "../helpers/people";
import { sandboxForSuite } from "../helpers/sandbox";

/*
 * Adversary, issue 41 class 1 ("a mode never answers a question about the world outside the workspace") and the
 * role model ("each act is checked against that person's role where it happens").
 *
 * A. A folder grant made while *reading* outside (external_directory "always" on `/host/docs/*`) later lets auto
 *    mode write there: the write's folder ask is answered by the grant and its edit ask, about a file outside the
 *    workspace, by auto mode. Nobody is asked about the write. Outside paths are never "control" either, so the
 *    same goes for another repository's `.git/hooks/pre-commit`.
 * B. Who may answer an external_directory ask is judged only against the *session's* workspace: a reviewer of
 *    root A (no role at all in root B) lets an A session read root B's files and plant a hook in a repository of
 *    root B. Root B's owner is never asked.
 */
sandboxForSuite();
const HOOK = "#!/bin/sh\necho original hook\n";
const EVIL = "#!/bin/sh\ntouch /tmp/pwned-by-plangate-agent\n";

let api: Api;
let host: string;
let other: string;
afterEach(async () => {
  await api?.close();
  fs.rmSync(host, { recursive: true, force: true });
  fs.rmSync(other, { recursive: true, force: true });
});

function setUp() {
  api = testApi({ env: { PLANGATE_ENABLE_BYPASS: "1", PLANGATE_AUTO_GATE: "open" } });
  const rootA = path.dirname(api.workspace);
  other = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-rootb-")));
  const repo = path.join(other, "repo");
  fs.mkdirSync(repo);
  execFileSync("git", ["init", "-q"], { cwd: repo });
  fs.writeFileSync(path.join(repo, ".git", "hooks", "pre-commit"), HOOK, { mode: 0o755 });
  fs.writeFileSync(path.join(repo, "SECRET.txt"), "root-b-secret-4242\n");
  host = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-hostdocs-")));
  fs.writeFileSync(path.join(host, "notes.txt"), "some notes\n");
  process.env.PLANGATE_WORKSPACE_ROOTS = `${rootA}:${other}`;
  resetEnvCache();
  return { rootA, repo };
}

const logOf = async (id: string) => JSON.stringify(await api.t.db.sessionEvent.findMany({ where: { sessionId: id } }));

describe.each(["auto", "bypassPermissions"])("A. a folder grant made for a read, then %s", (mode) => {
  it("a later write into that folder (a plain file) still asks a person", async () => {
    setUp();
    const id = await startScripted(
      api,
      [
        call("read", { path: path.join(host, "notes.txt") }),
        call("write", { path: path.join(host, "planted.sh"), content: EVIL }),
        { text: "done" },
      ],
      { mode },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    // The person allows reading the folder, always (the card offers it); every other question is refused.
    const asks = await driveAnswering(
      api,
      (s) => settle(api, s),
      id,
      (ask) => (ask.permission === "external_directory" ? { reply: "always" } : { reply: "reject" }),
    );
    // Only the read's folder was asked: the write was answered by the grant (folder) and the mode (the edit).
    // The promise: a write outside the workspace is a person's question, never the mode's.
    expect(asks.map((a) => a.permission)).not.toEqual(["external_directory"]);
    expect(fs.existsSync(path.join(host, "planted.sh"))).toBe(false);
  });

  it("a later write of another repository's git hook (outside the workspace, so never 'control') still asks", async () => {
    const { repo } = setUp();
    const hooks = path.join(repo, ".git", "hooks");
    const id = await startScripted(
      api,
      [
        call("read", { path: path.join(hooks, "pre-commit") }),
        call("write", { path: path.join(hooks, "pre-commit"), content: EVIL }),
        { text: "done" },
      ],
      { mode },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    await driveAnswering(
      api,
      (s) => settle(api, s),
      id,
      (ask) => (ask.permission === "external_directory" ? { reply: "always" } : { reply: "reject" }),
    );
    expect(fs.readFileSync(path.join(hooks, "pre-commit"), "utf8")).toBe(HOOK);
  });
});

describe("B. an outside folder in another root is that root's people's to allow", () => {
  it("a reviewer of root A only cannot let an A session read root B's files", async () => {
    const { rootA, repo } = setUp();
    const rita = await signedInCookie(api.t.db, "rita@example.com", [{ root: rootA, role: "reviewer" }]);
    const id = await startScripted(api, [call("read", { path: path.join(repo, "SECRET.txt") }), { text: "done" }]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    expect((await settle(api, id)).status).toBe("awaiting_permission");
    const [ask] = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions;
    expect(ask.permission).toBe("external_directory");
    // Rita has no role over root B: she may not read its sessions...
    const theirs = await api.call("GET", `/api/sessions?workspace=${encodeURIComponent(repo)}`, undefined, rita);
    expect(JSON.stringify(theirs.body)).not.toContain("root-b-secret");
    // ...so she may not show its files to a model either.
    const res = await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" }, rita);
    expect(res.status).toBe(403);
    await settle(api, id).catch(() => undefined);
    expect(await logOf(id)).not.toContain("root-b-secret-4242");
  });

  it("a reviewer of root A only cannot let an A session plant a git hook in root B", async () => {
    const { rootA, repo } = setUp();
    const rita = await signedInCookie(api.t.db, "rita@example.com", [{ root: rootA, role: "reviewer" }]);
    const id = await startScripted(api, [
      call("write", { path: path.join(repo, ".git/hooks/pre-commit"), content: EVIL }),
      { text: "done" },
    ]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      if ((await settle(api, id)).status !== "awaiting_permission") break;
      const pending = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions;
      if (pending.length === 0) break;
      for (const ask of pending) {
        const r = await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "once" }, rita);
        statuses.push(r.status);
      }
      if (statuses.some((s) => s !== 200)) break;
    }
    expect(statuses).toContain(403);
    expect(fs.readFileSync(path.join(repo, ".git/hooks/pre-commit"), "utf8")).toBe(HOOK);
  });
});
