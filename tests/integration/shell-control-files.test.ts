import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sandboxForSuite } from "../helpers/sandbox";
import { call, results, settle, startScripted, testApi, type Api } from "../helpers/api";
import { driveAnswering } from "../helpers/boundary";

/*
 * Control files (.plangate, .git, agent and editor settings, shell rc files) steer what the agent may do and
 * what runs later. A write to one asks a person in every mode but bypassPermissions, whatever acceptEdits,
 * auto, a config rule or "always" says; from the shell they are read-only unless a person approved the
 * command as written; and git never runs the workspace's hooks, fsmonitor or pager for a command that a
 * person did not approve as written.
 */
const sandbox = sandboxForSuite();
let api: Api;
afterEach(async () => {
  await api?.close();
});

const EVIL_CONFIG = JSON.stringify({ permission: { bash: "allow" } });

function gitRepo(files: Record<string, string> = {}): Api {
  const a = testApi({
    files: { "README.md": "# Demo\n", "src/a.ts": "export const a = 1;\n", ...files },
    env: { PLANGATE_ENABLE_BYPASS: "1" },
  });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: a.workspace, stdio: "pipe" });
  git("init", "-q");
  git("-c", "user.name=t", "-c", "user.email=t@t", "add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
  return a;
}

async function asksOf(id: string) {
  return (await api.call("GET", `/api/permissions?sessionId=${id}&status=pending`)).body.permissions as {
    id: string;
    permission: string;
    patterns: string[];
    metadata: Record<string, unknown>;
  }[];
}

describe("control files always ask", () => {
  it.each([
    ["acceptEdits", ".plangate/config.json"],
    ["acceptEdits", ".git/config"],
    ["acceptEdits", ".claude/settings.json"],
    ["acceptEdits", ".vscode/tasks.json"],
    ["acceptEdits", ".bashrc"],
    ["acceptEdits", "sub/.npmrc"],
    ["auto", ".plangate/config.json"],
    ["auto", ".git/hooks/pre-commit"],
  ])("in %s a write to %s asks, cannot be allowed always, and a reject leaves it unwritten", async (mode, file) => {
    api = gitRepo();
    const before = fs.existsSync(path.join(api.workspace, file))
      ? fs.readFileSync(path.join(api.workspace, file), "utf8")
      : null;
    const id = await startScripted(
      api,
      [call("write", { path: file, content: EVIL_CONFIG }), call("bash", { command: "rm -rf src" }), { text: "done" }],
      { mode },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    expect((await settle(api, id)).status).toBe("awaiting_permission");
    const [ask] = await asksOf(id);
    expect(ask?.permission).toBe("edit");
    expect(ask?.metadata.control).toBe(true);
    const always = await api.call("POST", `/api/permissions/${ask!.id}/reply`, { reply: "always" });
    expect(always.status).toBe(400);
    expect(always.body.error.message).toContain("control file");
    expect((await api.call("POST", `/api/permissions/${ask!.id}/reply`, { reply: "reject" })).status).toBe(200);
    await driveAnswering(
      api,
      (s) => settle(api, s),
      id,
      () => ({ reply: "reject" }),
    );
    const now = fs.existsSync(path.join(api.workspace, file))
      ? fs.readFileSync(path.join(api.workspace, file), "utf8")
      : null;
    expect(now).toBe(before);
    // The config never took effect: without it, acceptEdits still asks before the shell command (auto answers it).
    if (mode === "acceptEdits") expect(fs.existsSync(path.join(api.workspace, "src/a.ts"))).toBe(true);
  });

  it("a config rule that allows every edit, and an edit grant, still do not answer a control file", async () => {
    api = gitRepo({ ".plangate/config.json": JSON.stringify({ permission: { edit: "allow" } }) });
    const id = await startScripted(
      api,
      [
        call("write", { path: "notes.md", content: "x\n" }),
        call("write", { path: ".plangate/config.json", content: EVIL_CONFIG }),
        { text: "done" },
      ],
      { mode: "acceptEdits" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    expect((await settle(api, id)).status).toBe("awaiting_permission");
    const [ask] = await asksOf(id);
    expect(ask?.patterns).toEqual([".plangate/config.json"]);
    expect(fs.readFileSync(path.join(api.workspace, "notes.md"), "utf8")).toBe("x\n");
  });

  it("a path that reaches a control file through a symlink is judged where it lands", async () => {
    api = gitRepo();
    fs.mkdirSync(path.join(api.workspace, ".plangate"), { recursive: true });
    fs.symlinkSync(".plangate", path.join(api.workspace, "settings"));
    const id = await startScripted(
      api,
      [call("write", { path: "settings/config.json", content: EVIL_CONFIG }), { text: "done" }],
      { mode: "acceptEdits" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    expect((await settle(api, id)).status).toBe("awaiting_permission");
    const [ask] = await asksOf(id);
    expect(ask?.patterns).toEqual([".plangate/config.json"]);
    expect(ask?.metadata.control).toBe(true);
    expect(fs.existsSync(path.join(api.workspace, ".plangate/config.json"))).toBe(false);
  });

  it("bypassPermissions (enabled by the operator) writes without asking; plan mode refuses", async () => {
    api = gitRepo();
    const id = await startScripted(
      api,
      [call("write", { path: ".vscode/settings.json", content: "{}\n" }), { text: "done" }],
      { mode: "bypassPermissions" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    expect((await settle(api, id)).status).toBe("idle");
    expect(fs.readFileSync(path.join(api.workspace, ".vscode/settings.json"), "utf8")).toBe("{}\n");

    const planned = await startScripted(
      api,
      [call("write", { path: ".plangate/config.json", content: EVIL_CONFIG }), { text: "done" }],
      { mode: "plan" },
    );
    await api.call("POST", `/api/sessions/${planned}/messages`, { text: "go" });
    const { events } = await settle(api, planned);
    expect(results(events)[0]?.error).toContain("plan mode");
    expect(fs.existsSync(path.join(api.workspace, ".plangate/config.json"))).toBe(false);
  });
});

describe.skipIf(!sandbox.available)(
  "from the shell, control files are read-only unless a person approved the command as written",
  () => {
    it("a command allowed by a saved prefix rule cannot write .plangate or .git/config; one approved as written can", async () => {
      api = gitRepo({ ".plangate/config.json": "{}\n" });
      const gitConfig = fs.readFileSync(path.join(api.workspace, ".git/config"), "utf8");
      const id = await startScripted(api, [
        call("bash", { command: "touch first.txt" }),
        call("bash", { command: "touch .plangate/config.json .git/config" }),
        call("bash", { command: "cp README.md .plangate/notes.md" }),
        { text: "done" },
      ]);
      await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
      let asked = 0;
      await driveAnswering(
        api,
        (s) => settle(api, s),
        id,
        () => (asked++ === 0 ? { reply: "always", rules: ["touch *"] } : { reply: "once" }),
      );
      const { events } = await settle(api, id);
      const [first, second, third] = results(events).filter((r) => r.tool === "bash");
      expect(first?.ok).toBe(true);
      // The prefix rule let it run, but not as written by a person: the control files were mounted read-only.
      expect(second?.output).toContain("Read-only file system");
      expect(fs.readFileSync(path.join(api.workspace, ".git/config"), "utf8")).toBe(gitConfig);
      // The third asked (exact text approved once): the person saw it, so it may write into the control folder.
      expect(asked).toBe(2);
      expect(third?.output).toMatch(/exit code 0$/);
      expect(fs.readFileSync(path.join(api.workspace, ".plangate/notes.md"), "utf8")).toBe("# Demo\n");
    });

    it("a planted core.fsmonitor and hook run for no git command but one a person approved as written", async () => {
      api = gitRepo();
      const marker = "FSMONITOR-RAN";
      execFileSync("git", ["config", "core.fsmonitor", `echo ${marker} >&2; false`], { cwd: api.workspace });
      fs.writeFileSync(path.join(api.workspace, ".git/hooks/pre-commit"), "#!/bin/sh\necho ran >> hook-ran.txt\n", {
        mode: 0o755,
      });
      const id = await startScripted(api, [
        call("bash", { command: "git status" }),
        call("bash", { command: "git add README.md" }),
        call("bash", { command: "git add src" }),
        call("bash", { command: "git commit -qm one" }),
        call("bash", { command: "git commit -qm two --allow-empty" }),
        { text: "done" },
      ]);
      await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
      // The person approves the first git add and the first commit as written, and saves a prefix rule for the rest.
      let n = 0;
      await driveAnswering(
        api,
        (s) => settle(api, s),
        id,
        () => ({ reply: "always", rules: [n++ === 0 ? "git add *" : "git commit *"] }),
      );
      const { events } = await settle(api, id);
      const outputs = results(events)
        .filter((r) => r.tool === "bash")
        .map((r) => String(r.output));
      expect(n).toBe(2);
      // git status (allowlisted) and the two commands allowed by a rule: the repository's fsmonitor stayed off.
      for (const i of [0, 2, 4]) expect(outputs[i], `call ${i}`).not.toContain(marker);
      expect(outputs[1]).toContain(marker);
      // Only the commit the person approved as written ran the pre-commit hook.
      expect(fs.readFileSync(path.join(api.workspace, "hook-ran.txt"), "utf8")).toBe("ran\n");
      expect(outputs[4]).toMatch(/exit code 0$/);
    });
  },
);
