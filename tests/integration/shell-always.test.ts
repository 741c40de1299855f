import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newId } from "../../lib/id";
import { sandboxForSuite } from "../helpers/sandbox";
import { call, results, settle, startScripted, testApi, type Api } from "../helpers/api";

/*
 * "Always" used to save rules far wider than the command a person saw. Each case: the first command asks
 * and is allowed always (with the rule the card proposes by default); the second command, which the old
 * rule would have covered, must ask again and, left unanswered, must not have run.
 */
const sandbox = sandboxForSuite();
let api: Api;

beforeEach(() => {
  api = testApi({
    files: { "README.md": "# Demo\n", "src/a.ts": "export const a = 1;\n", "evil.sh": "#!/bin/sh\ntouch EVIL-RAN\n" },
  });
  fs.chmodSync(path.join(api.workspace, "evil.sh"), 0o755);
});
afterEach(async () => {
  await api.close();
});

type Ask = { id: string; patterns: string[]; always: string[]; metadata: Record<string, unknown> };

async function pendingAsk(id: string): Promise<Ask> {
  const { status } = await settle(api, id);
  expect(status).toBe("awaiting_permission");
  const asks = (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions as Ask[];
  expect(asks).toHaveLength(1);
  return asks[0]!;
}

describe.skipIf(!sandbox.available)("Allow always saves no more than what was approved", () => {
  it.each([
    ["env FOO=1 ls", "env rm -rf src"],
    ["timeout 5 echo hi", "timeout 5 rm -rf src"],
    ["bash -c 'echo hi'", "bash -c 'rm -rf src'"],
    ["git -c color.ui=never status", "git clean -fdx"],
    ["ls > out.txt", "ls > README.md"],
    ["npm test", "npm test --script-shell=./evil.sh"],
    ["nice -n 5 echo hi", "nice -n 5 rm -rf src"],
    ["python3 -c 'print(1)'", "python3 -c 'import shutil; shutil.rmtree(\"src\")'"],
  ])("after always for %j, %j still asks and has not run", async (first, second) => {
    const id = await startScripted(api, [
      call("bash", { command: first }),
      call("bash", { command: second }),
      { text: "done" },
    ]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const ask = await pendingAsk(id);
    expect(
      (await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "always", scope: "workspace" })).status,
    ).toBe(200);
    const grants = (await api.call("GET", `/api/grants?sessionId=${id}`)).body.grants as {
      pattern: string;
      exact: boolean;
    }[];
    // Wrappers, interpreters, git -c, redirections and package scripts are saved exactly as written.
    expect(grants.map((g) => g.exact)).toEqual(grants.map(() => true));
    const next = await pendingAsk(id);
    expect(next.patterns.join(" ")).toContain(second.split(" ")[0]);
    expect(fs.existsSync(path.join(api.workspace, "src/a.ts"))).toBe(true);
    expect(fs.readFileSync(path.join(api.workspace, "README.md"), "utf8")).toBe("# Demo\n");
    expect(fs.existsSync(path.join(api.workspace, "EVIL-RAN"))).toBe(false);
  });

  it("a harmless prefix (mkdir) is offered, and once saved covers the next mkdir; the person may narrow it to the exact text", async () => {
    const id = await startScripted(api, [
      call("bash", { command: "mkdir -p a" }),
      call("bash", { command: "mkdir b" }),
      call("bash", { command: "mkdir -p c" }),
      { text: "done" },
    ]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const ask = await pendingAsk(id);
    const options = (ask.metadata.alwaysOptions as { options: { rule: string; exact: boolean; words: string }[] }[])[0]!
      .options;
    expect(options).toEqual([
      { rule: "mkdir -p a", exact: true, words: "exactly `mkdir -p a`" },
      { rule: "mkdir *", exact: false, words: "`mkdir` with any arguments" },
    ]);
    // A rule that was not offered is refused, and nothing is saved.
    const bad = await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "always", rules: ["rm *"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("not one of the rules offered");
    // Narrowed to exactly what was shown.
    expect(
      (await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "always", rules: ["mkdir -p a"] })).status,
    ).toBe(200);
    const second = await pendingAsk(id);
    expect(second.patterns).toEqual(["mkdir b"]);
    // This time the default prefix: the third mkdir runs with no ask.
    expect((await api.call("POST", `/api/permissions/${second.id}/reply`, { reply: "always" })).status).toBe(200);
    const { status, events } = await settle(api, id);
    expect(status).toBe("idle");
    expect(
      results(events)
        .filter((r) => r.tool === "bash")
        .map((r) => r.ok),
    ).toEqual([true, true, true]);
    expect(fs.existsSync(path.join(api.workspace, "c"))).toBe(true);
  });

  it("a prefix rule never covers the same program with a redirection or a substitution", async () => {
    const id = await startScripted(api, [
      call("bash", { command: "mkdir d" }),
      call("bash", { command: "mkdir e > README.md" }),
      { text: "done" },
    ]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const ask = await pendingAsk(id);
    await api.call("POST", `/api/permissions/${ask.id}/reply`, { reply: "always" });
    expect(
      (await api.call("GET", `/api/grants?sessionId=${id}`)).body.grants.map((g: { pattern: string }) => g.pattern),
    ).toEqual(["mkdir *"]);
    const next = await pendingAsk(id);
    expect(next.patterns).toEqual(["mkdir e >README.md"]);
    expect(fs.readFileSync(path.join(api.workspace, "README.md"), "utf8")).toBe("# Demo\n");
  });

  it("saved rules are listed per session and per workspace, and a revoked rule asks again", async () => {
    const id = await startScripted(api, [
      call("bash", { command: "touch one.txt" }),
      call("bash", { command: "touch one.txt" }),
      { text: "done" },
    ]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const ask = await pendingAsk(id);
    await api.call("POST", `/api/permissions/${ask.id}/reply`, {
      reply: "always",
      scope: "workspace",
      rules: ["touch one.txt"],
    });
    await settle(api, id);
    const byWorkspace = (await api.call("GET", `/api/grants?workspace=${encodeURIComponent(api.workspace)}`)).body
      .grants;
    expect(byWorkspace).toEqual([
      expect.objectContaining({
        scope: "workspace",
        permission: "bash",
        pattern: "touch one.txt",
        exact: true,
        words: "Run exactly `touch one.txt`",
      }),
    ]);
    expect((await api.call("GET", `/api/grants?sessionId=${id}`)).body.grants).toHaveLength(1);
    expect((await api.call("GET", "/api/grants")).status).toBe(400);

    expect((await api.call("DELETE", `/api/grants/${byWorkspace[0].id}`)).status).toBe(200);
    expect((await api.call("DELETE", `/api/grants/${byWorkspace[0].id}`)).status).toBe(404);
    const again = await startScripted(api, [call("bash", { command: "touch one.txt" }), { text: "done" }]);
    await api.call("POST", `/api/sessions/${again}/messages`, { text: "go" });
    expect((await pendingAsk(again)).patterns).toEqual(["touch one.txt"]);
  });

  it("a wide rule saved by an older version (env *) is read as exact text, not as a prefix", async () => {
    await api.t.db.permissionGrant.create({
      data: {
        id: newId("grt"),
        scope: "workspace",
        workspace: api.workspace,
        permission: "bash",
        pattern: "env *",
        action: "allow",
      },
    });
    const id = await startScripted(api, [call("bash", { command: "env rm -rf src" }), { text: "done" }]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    expect((await pendingAsk(id)).patterns).toEqual(["env rm -rf src"]);
    expect(fs.existsSync(path.join(api.workspace, "src/a.ts"))).toBe(true);
  });
});
