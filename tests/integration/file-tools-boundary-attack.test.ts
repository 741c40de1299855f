import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "../../lib/env";
import { call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { driveAnswering, treeHash } from "../helpers/boundary";
import { sandboxForSuite } from "../helpers/sandbox";

/*
 * Issue 41, class 1: auto mode answered `external_directory`, and the file tools ran in the server's process, so
 * the agent wrote outside every root, planted a git hook in a repository of another root and read the server's
 * auth-secret. Now a folder outside the workspace is a person's question in every mode, and the file tools reach
 * the disk only through a confined worker that shows the workspace and the folders a person allowed.
 */
const sandbox = sandboxForSuite();
const SECRET = "AUTH-SECRET-do-not-leak-7f3a9c";
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

/** A workspace, a second root holding a git repository, a host folder outside every root, the data folder's secret. */
function setUp(): { dataDir: string; repo: string } {
  api = testApi({ env: { PLANGATE_ENABLE_BYPASS: "1" } });
  const dataDir = path.dirname(api.workspace);
  fs.writeFileSync(path.join(dataDir, "auth-secret"), SECRET);
  other = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-other-root-")));
  const repo = path.join(other, "repo");
  fs.mkdirSync(repo);
  execFileSync("git", ["init", "-q"], { cwd: repo });
  fs.writeFileSync(path.join(repo, ".git", "hooks", "pre-commit"), HOOK, { mode: 0o755 });
  host = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-host-")));
  process.env.PLANGATE_WORKSPACE_ROOTS = `${dataDir}:${other}`;
  resetEnvCache();
  return { dataDir, repo };
}

const everything = (id: string) => api.t.db.sessionEvent.findMany({ where: { sessionId: id } });

/** Starts a scripted session in `mode`, sends "go" and runs it, a person answering every ask with `answer`. */
async function run(
  script: Parameters<typeof startScripted>[1],
  mode: string,
  answer: Parameters<typeof driveAnswering>[3],
): Promise<{ id: string; asks: Awaited<ReturnType<typeof driveAnswering>> }> {
  const id = await startScripted(api, script, { mode });
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
  return { id, asks: await driveAnswering(api, (s) => settle(api, s), id, answer) };
}

describe.each(["auto", "acceptEdits", "bypassPermissions"])("in %s, the file tools stay inside", (mode) => {
  it("asks a person for every path outside (.., absolute, a link, a link made by an earlier call), and nothing outside changes or leaks", async () => {
    const { dataDir, repo } = setUp();
    const otherBefore = treeHash(other);
    fs.symlink(repo, path.join(api.workspace, "escape"), () => undefined);
    fs.mkdirSync(path.join(api.workspace, "dir"));
    // A person allows the shell command that swaps the folder for a link, and refuses every folder outside.
    const { id, asks } = await run(
      [
        call("write", { path: path.join(host, "planted.txt"), content: "planted" }),
        call("write", { path: path.relative(api.workspace, path.join(repo, ".git/hooks/pre-commit")), content: EVIL }),
        call("write", { path: "escape/.git/hooks/pre-commit", content: EVIL }),
        call("read", { path: path.join(dataDir, "auth-secret") }),
        call("grep", { pattern: "AUTH", path: dataDir }),
        call("list", { path: "../" }),
        call("write", { path: "dir/inside.txt", content: "fine" }),
        call("bash", { command: `rm -rf dir && ln -s ${host} dir` }),
        call("write", { path: "dir/inside.txt", content: "through a swapped link" }),
        { text: "done" },
      ],
      mode,
      (ask) => (ask.permission === "bash" ? { reply: "once" } : { reply: "reject", message: "stay inside" }),
    );
    const outside = asks.filter((a) => a.permission === "external_directory").map((a) => a.patterns[0]);
    // Every outside path asked (the absolute one, the `..` one, the link, the read, the grep and the list of the
    // data folder, the write through the swapped link), whatever the mode.
    expect(new Set(outside)).toEqual(new Set([`${host}/*`, `${repo}/.git/hooks/*`, `${dataDir}/*`]));
    expect(outside).toHaveLength(7);
    expect(fs.existsSync(path.join(host, "planted.txt"))).toBe(false);
    expect(fs.existsSync(path.join(host, "inside.txt"))).toBe(false);
    expect(fs.readFileSync(path.join(repo, ".git/hooks/pre-commit"), "utf8")).toBe(HOOK);
    expect(treeHash(other)).toBe(otherBefore);
    const logged = JSON.stringify(await everything(id));
    expect(logged).not.toContain(SECRET);
  });
});

describe("what a person allowed outside is all the call sees", () => {
  it("a read of the data folder a person allowed still finds the server's files hidden", async () => {
    const { dataDir } = setUp();
    const { id } = await run(
      [call("read", { path: path.join(dataDir, "auth-secret") }), call("list", { path: dataDir }), { text: "done" }],
      "bypassPermissions",
      () => ({ reply: "once" }),
    );
    const logged = JSON.stringify(await everything(id));
    expect(logged).not.toContain(SECRET);
    expect(logged).toContain("File not found");
  });

  it("a write a person allowed to a host folder lands there, and only there", async () => {
    setUp();
    const { id, asks } = await run(
      [call("write", { path: path.join(host, "allowed.txt"), content: "yes" }), { text: "done" }],
      "auto",
      () => ({ reply: "once" }),
    );
    expect(asks.map((a) => a.permission)).toContain("external_directory");
    expect(fs.readFileSync(path.join(host, "allowed.txt"), "utf8")).toBe("yes");
  });
});

describe("without the sandbox", () => {
  it("the file tools refuse every path outside the workspace, before anyone is asked", async () => {
    setUp();
    process.env.PLANGATE_SANDBOX = "off";
    resetEnvCache();
    try {
      const { resetSandboxCache } = await import("../../lib/sandbox/detect-sandbox");
      resetSandboxCache();
      const { id, asks } = await run(
        [
          call("write", { path: path.join(host, "planted.txt"), content: "planted" }),
          call("read", { path: "../auth-secret" }),
          { text: "done" },
        ],
        "bypassPermissions",
        () => ({ reply: "once" }),
      );
      expect(asks.filter((a) => a.permission === "external_directory")).toEqual([]);
      expect(fs.existsSync(path.join(host, "planted.txt"))).toBe(false);
      const logged = JSON.stringify(await everything(id));
      expect(logged).not.toContain(SECRET);
      expect(logged).toContain("Without the sandbox");
    } finally {
      delete process.env.PLANGATE_SANDBOX;
      resetEnvCache();
      (await import("../../lib/sandbox/detect-sandbox")).resetSandboxCache();
    }
  });
});

void sandbox;
