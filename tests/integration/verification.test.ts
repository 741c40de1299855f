import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, settle, startScripted, testApi, trustWorkspaceConfig, type Api, type Step } from "../helpers/api";
import { exitWith } from "../helpers/plan-kit";
import { readEvents } from "../../lib/db/session-log/read-events";
import { waitFor } from "../helpers/poll";

let api: Api;
afterEach(async () => {
  await api?.close();
});

const PLAN = "# Plan: done flag\n\n1. Add a done flag in src/todo.ts\n2. Document it in README.md\n";

type Report = {
  status: string;
  method: string;
  items: { text: string; status: string; evidence: string[] }[];
  unplanned: string[];
  test: { passed: boolean; outputTail: string } | null;
  summary: string;
  gitUnchecked?: string;
};

/** A git workspace whose config allows bash (so a command can change files behind the tools' backs). */
async function gitWorkspace(verify?: string): Promise<Api> {
  const config = {
    permission: { bash: { "*": "allow" } },
    ...(verify ? { verify: { command: verify, timeoutMs: 20_000 } } : {}),
  };
  const a = testApi({
    files: {
      "README.md": "# Todo\n",
      "src/todo.ts": "export const todos = [];\n",
      ".plangate/config.json": JSON.stringify(config),
    },
  });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: a.workspace, stdio: "pipe" });
  git("init", "-q");
  git("-c", "user.name=t", "-c", "user.email=t@t", "add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
  // The config is the test's own, trusted as a person would on the workspace page.
  await trustWorkspaceConfig(a, a.workspace);
  return a;
}

/** The ask opened before the workspace's verify command runs (a person must allow it). */
async function verifyAsk(id: string): Promise<{ id: string; patterns: string[]; tool: string }> {
  return waitFor(
    "the verify command's ask",
    async () =>
      (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions.find(
        (p: { tool: string }) => p.tool === "verify",
      ),
    30_000,
  );
}

/**
 * Plans, is approved (edits accepted), executes `work`, and returns the verification made when the turn ended.
 * With a verify command configured the person is asked first; `verifyReply` answers that ask.
 */
async function planAndRun(
  work: Step[],
  verifyReply?: "once" | "always" | "reject",
): Promise<{ id: string; report: Report }> {
  const id = await startScripted(api, [exitWith(PLAN), ...work, { text: "finished" }], { mode: "plan" });
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "add a done flag" });
  expect((await settle(api, id)).status).toBe("awaiting_review");
  const review = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id as string;
  expect(
    (await api.call("POST", `/api/reviews/${review}/decision`, { decision: "approve", mode: "acceptEdits" })).status,
  ).toBe(200);
  if (verifyReply) {
    const ask = await verifyAsk(id);
    expect(
      (
        await api.call("POST", `/api/permissions/${ask.id}/reply`, {
          reply: verifyReply,
          ...(verifyReply === "always" ? { scope: "workspace" } : {}),
        })
      ).status,
    ).toBe(200);
  }
  const verification = await waitFor(
    "the verification",
    async () => (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications[0],
    30_000,
  );
  const events = await readEvents(api.t.db, id);
  const completed = events.filter((e) => e.type === "verification.completed");
  expect(completed).toHaveLength(1);
  expect(completed[0]?.payload).toMatchObject({
    verificationId: verification.id,
    status: verification.report.status,
    method: "deterministic",
  });
  return { id, report: verification.report as Report };
}

const statuses = (r: Report) => r.items.map((i) => i.status);

describe("verification: the work checked against the approved plan (scripted sessions, git workspace)", () => {
  it("every item changed and the verify command passed → pass, and it runs once on its own when the execution turn ends", async () => {
    api = await gitWorkspace("echo 'all tests pass'");
    const { id, report } = await planAndRun(
      [
        call("write", { path: "src/todo.ts", content: "export const todos: { done: boolean }[] = [];\n" }),
        call("edit", { path: "README.md", oldString: "# Todo\n", newString: "# Todo\n\nEach todo has a done flag.\n" }),
      ],
      "always",
    );
    expect(report.status).toBe("pass");
    expect(statuses(report)).toEqual(["done", "done"]);
    expect(report.unplanned).toEqual([]);
    expect(report.items[0]?.evidence).toEqual(["src/todo.ts (modified)"]);
    // On demand it runs again: a second record.
    const again = await api.call("POST", `/api/sessions/${id}/verify`);
    expect(again.status).toBe(201);
    expect((await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications).toHaveLength(2);
    const history = (await api.call("GET", `/api/sessions/${id}/history`)).body.history;
    expect(history.plans[0].verification).toBe("verified");
  });

  it("an item missing → fail, naming it; the export carries the report", async () => {
    api = await gitWorkspace();
    const { id, report } = await planAndRun([
      call("write", { path: "src/todo.ts", content: "export const todos = [{ done: false }];\n" }),
    ]);
    expect(report.status).toBe("fail");
    expect(statuses(report)).toEqual(["unverified", "missing"]);
    expect(report.summary).toContain("not done: Document it in README.md");
    const md = (await api.call("GET", `/api/sessions/${id}/export?format=md`)).body as string;
    expect(md).toContain("## Verification");
    expect(md).toContain("- missing: Document it in README.md");
    expect((await api.call("GET", `/api/sessions/${id}/export?format=json`)).body.verifications[0].status).toBe("fail");
  });

  it("an unplanned file changed → listed (nothing fails; with no verify command it is unverified)", async () => {
    api = await gitWorkspace();
    const { report } = await planAndRun([
      call("write", { path: "src/todo.ts", content: "export const todos = [{ done: false }];\n" }),
      call("write", { path: "README.md", content: "# Todo\n\ndone flag\n" }),
      call("write", { path: "scripts/deploy.sh", content: "echo deploy\n" }),
    ]);
    expect(report.status).toBe("unverified");
    expect(report.unplanned).toEqual(["scripts/deploy.sh"]);
  });

  it("a change made outside the tools (by bash) is found through git", async () => {
    api = await gitWorkspace();
    const { report } = await planAndRun([
      call("write", { path: "src/todo.ts", content: "export const todos = [{ done: false }];\n" }),
      call("bash", { command: "printf 'Todos have a done flag.\\n' >> README.md" }),
    ]);
    expect(statuses(report)).toEqual(["unverified", "unverified"]);
    expect(report.items[1]?.evidence).toEqual(["README.md (modified, outside the tools)"]);
    expect(report.status).toBe("unverified");
  });

  it("the snapshot runs no git filter, textconv or external diff the repository's (or the user's) config names", async () => {
    api = await gitWorkspace();
    const ws = api.workspace;
    // The repository says every file goes through the "evil" drivers; its config (as an attacker wrote it) defines them.
    fs.writeFileSync(path.join(ws, ".gitattributes"), "* filter=evil diff=evil\n");
    const mark = (name: string) => `touch ${ws}/${name}; cat`;
    fs.appendFileSync(
      path.join(ws, ".git/config"),
      `[filter "evil"]\n\tclean = ${mark("PWNED-clean")}\n\tsmudge = cat\n\tprocess = ${mark("PWNED-process")}\n\trequired = true\n[diff "evil"]\n\ttextconv = ${mark("PWNED-textconv")}\n\tcommand = ${mark("PWNED-extdiff")}\n`,
    );
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-home-"));
    fs.writeFileSync(path.join(home, ".gitconfig"), `[filter "evil"]\n\tclean = ${mark("PWNED-user")}\n`);
    const before = process.env.HOME;
    process.env.HOME = home;
    try {
      const { report } = await planAndRun([
        call("write", { path: "src/todo.ts", content: "export const todos = [{ done: false }];\n" }),
        call("bash", { command: "printf 'Todos have a done flag.\\n' >> README.md" }),
      ]);
      // git still saw the change made behind the tools' backs, through none of the drivers.
      expect(report.items[1]?.evidence).toEqual(["README.md (modified, outside the tools)"]);
      expect(report.gitUnchecked).toBeUndefined();
    } finally {
      process.env.HOME = before;
      fs.rmSync(home, { recursive: true, force: true });
    }
    expect(fs.readdirSync(ws).filter((f) => f.startsWith("PWNED"))).toEqual([]);
  });

  it("a failing test command → fail with its output tail", async () => {
    api = await gitWorkspace("echo 'running 3 tests'; echo 'assertion failed: expected done to be true'; exit 1");
    const { report } = await planAndRun(
      [
        call("write", { path: "src/todo.ts", content: "export const todos = [{ done: false }];\n" }),
        call("write", { path: "README.md", content: "# Todo\n\ndone flag\n" }),
      ],
      "once",
    );
    expect(statuses(report)).toEqual(["failing", "failing"]);
    expect(report.status).toBe("fail");
    expect(report.test?.passed).toBe(false);
    expect(report.test?.outputTail).toContain("assertion failed: expected done to be true");
    expect(report.summary).toContain("verify command failed (exit 1)");
  });

  it("without an approved plan there is nothing to verify (409), and /verify says so too", async () => {
    api = await gitWorkspace();
    const id = await startScripted(api, [{ text: "hi" }]);
    expect((await api.call("POST", `/api/sessions/${id}/verify`)).status).toBe(409);
    const res = await api.call("POST", `/api/sessions/${id}/messages`, { text: "/verify" });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/no approved plan/);
    expect(fs.existsSync(path.join(api.workspace, ".git"))).toBe(true);
  });
});
