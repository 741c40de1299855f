import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, results, settle, startScripted, testApi, type Api } from "../helpers/api";
import { driveAnswering } from "../helpers/boundary";
import { sandboxForSuite } from "../helpers/sandbox";

/*
 * Issue 41, class 3: control files by principle. Every control file in one table: written by the agent's file tool in
 * acceptEdits it asks (never "always") and a person's reject leaves it unwritten; planted by a shell command that was
 * allowed to write without a person (auto mode), the command meets a read-only folder or is refused and the file is
 * gone afterwards. Paths at the top and deeper down (cargo, direnv and Codex read them in every folder above where they
 * run), and the folders the repository's git config names (its hooks folder, an included file).
 */
const sandbox = sandboxForSuite();

/** Workspace-relative path written or planted; every one of them is a control file. */
const TABLE: readonly string[] = [
  // What the issue found written unasked.
  ".cargo/config.toml",
  ".cargo/config",
  "crates/app/.cargo/config.toml",
  ".githooks/pre-commit",
  "rust-toolchain.toml",
  "rust-toolchain",
  "crates/app/rust-toolchain.toml",
  ".devcontainer.json",
  ".hg/hgrc",
  "demo.code-workspace",
  ".zed/settings.json",
  "mise.local.toml",
  ".mise.dev.toml",
  "AGENTS.md",
  "packages/api/AGENTS.md",
  // Agent instructions and settings.
  "CLAUDE.md",
  "CLAUDE.local.md",
  "GEMINI.md",
  "QWEN.md",
  "AGENTS.override.md",
  "AGENT.md",
  ".github/copilot-instructions.md",
  ".github/instructions/ts.instructions.md",
  ".github/agents/fixer.md",
  ".cursorrules",
  ".windsurfrules",
  ".rules",
  ".goosehints",
  ".aider.conf.yml",
  ".mcp.json",
  "opencode.json",
  "opencode.jsonc",
  ".claude/settings.json",
  ".opencode/plugin/x.js",
  ".cursor/rules/x.mdc",
  ".gemini/settings.json",
  ".qwen/settings.json",
  ".codex/config.toml",
  ".openhands/setup.sh",
  ".clinerules/x.md",
  ".roo/rules/x.md",
  ".windsurf/rules/x.md",
  ".kiro/steering/x.md",
  ".amazonq/rules/x.md",
  ".continue/config.yaml",
  ".junie/guidelines.md",
  // CI: runs on the next push, with the repository's secrets.
  ".github/workflows/ci.yml",
  ".gitea/workflows/ci.yml",
  ".forgejo/workflows/ci.yml",
  ".gitlab-ci.yml",
  ".circleci/config.yml",
  ".buildkite/pipeline.yml",
  ".woodpecker/ci.yml",
  ".woodpecker.yml",
  ".travis.yml",
  ".drone.yml",
  "bitbucket-pipelines.yml",
  "azure-pipelines.yml",
  "Jenkinsfile",
  // Version control.
  ".git/hooks/post-checkout",
  ".git/info/attributes",
  ".jj/repo/config.toml",
  ".sl/config",
  ".gitmodules",
  ".lfsconfig",
  "team.gitconfig",
  "vendor/lib/.git/config",
  // Editors.
  ".vscode/tasks.json",
  "sub/.vscode/tasks.json",
  ".idea/workspace.xml",
  ".fleet/run.json",
  ".helix/languages.toml",
  ".devcontainer/devcontainer.json",
  ".nvim.lua",
  ".nvimrc",
  ".exrc",
  ".dir-locals.el",
  ".dir-locals-2.el",
  // Shells, tool and package managers, hook managers.
  ".envrc",
  "sub/.envrc",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".pythonrc",
  ".inputrc",
  ".tool-versions",
  "mise.toml",
  ".mise.toml",
  ".mise/config.toml",
  ".config/mise.toml",
  ".config/mise/config.toml",
  "mise/config.toml",
  ".npmrc",
  "pkg/.npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".yarn/releases/yarn-4.cjs",
  ".yarn/plugins/plugin.cjs",
  ".pnpmrc",
  ".pnpmfile.cjs",
  "bunfig.toml",
  "uv.toml",
  ".bundle/config",
  ".husky/pre-commit",
  ".pre-commit-config.yaml",
  "lefthook.yml",
  "lefthook.yaml",
  ".lefthook.yml",
  ".lefthook.yaml",
  "lefthook-local.yml",
  ".plangate/config.json",
  // By principle (issue 41): the siblings of the above. Interpreters' and debuggers' start-up files, Vim's exrc.
  ".vimrc",
  ".gvimrc",
  ".Rprofile",
  ".Renviron",
  ".iex.exs",
  ".irbrc",
  ".pryrc",
  ".pdbrc",
  ".octaverc",
  ".ghci",
  ".ocamlinit",
  ".gdbinit",
  ".rvmrc",
  // What the hooks that hook managers install run on every commit.
  ".lintstagedrc",
  ".lintstagedrc.json",
  "lint-staged.config.js",
  "commitlint.config.js",
  ".overcommit.yml",
  ".simple-git-hooks.json",
  "lefthook.toml",
  // Where a build's own program comes from, and with which options it starts.
  "gradle/wrapper/gradle-wrapper.properties",
  "gradle.properties",
  ".mvn/wrapper/maven-wrapper.properties",
  ".mvn/extensions.xml",
  ".mvn/jvm.config",
  "nuget.config",
  "global.json",
  ".bazelrc",
  ".bazelversion",
  ".jvmopts",
  ".sbtopts",
  // Editors and dev environments that run tasks when the folder opens.
  "project.sublime-project",
  ".theia/tasks.json",
  ".gitpod.yml",
  "devbox.json",
  // Other agents' instructions and settings; CI's local actions.
  "CRUSH.md",
  ".crush.json",
  "WARP.md",
  ".continuerules",
  ".kilocode/rules/rules.md",
  ".trae/rules/project_rules.md",
  ".augment/rules/rules.md",
  ".augment-guidelines",
  ".aiderignore",
  ".github/prompts/release.prompt.md",
  ".github/chatmodes/plan.chatmode.md",
  ".github/actions/setup/action.yml",
];

const PAYLOAD = "#!/bin/sh\ntouch PWNED\n";

/** Beside control files, and named like them, but the project's own: written without a person, by either way. */
const ORDINARY: readonly string[] = [
  "src/ok.ts",
  ".github/ISSUE_TEMPLATE/bug.md",
  "docs/agents-guide.md",
  "crates/app/src/cargo/config.toml",
  ".nvmrc",
  "Makefile",
  // Linters' and test runners' configs are the project's source; a single one of git's names is an ordinary name.
  "eslint.config.js",
  "src/objects/user.ts",
  "docs/refs/guide.md",
];

/** A repository whose git config names a hooks folder (absent) and includes a file inside the workspace. */
function repo(): Api {
  const a = testApi({
    files: { "README.md": "# Demo\n", "crates/app/Cargo.toml": "[package]\nname = 'app'\n", "sub/x.txt": "x\n" },
    // One call per row, in one turn.
    env: { PLANGATE_MAX_STEPS: "300" },
  });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: a.workspace, stdio: "pipe" });
  git("init", "-q");
  git("config", "core.hooksPath", ".githooks");
  git("config", "include.path", "../team.gitconfig");
  git("add", "-A");
  git("commit", "-qm", "init");
  return a;
}

const exists = (api: Api, rel: string) => fs.existsSync(path.join(api.workspace, rel));

describe("every control file asks before the file tools write it (acceptEdits)", () => {
  let api: Api;
  let asks: { patterns: string[]; metadata: Record<string, unknown> }[] = [];
  let always: number[] = [];
  beforeAll(async () => {
    api = repo();
    const id = await startScripted(
      api,
      [...[...TABLE, ...ORDINARY].map((p) => call("write", { path: p, content: PAYLOAD })), { text: "done" }],
      { mode: "acceptEdits" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    asks = await driveAnswering(
      api,
      (s) => settle(api, s, 60_000),
      id,
      () => ({ reply: "reject" }),
    );
    // "always" is never offered for a control file: a fresh ask is refused it too.
    const again = await startScripted(api, [call("write", { path: "AGENTS.md", content: PAYLOAD }), { text: "done" }], {
      mode: "acceptEdits",
    });
    await api.call("POST", `/api/sessions/${again}/messages`, { text: "go" });
    await settle(api, again);
    const [pending] = (await api.call("GET", `/api/permissions?sessionId=${again}&status=pending`)).body.permissions;
    always = [(await api.call("POST", `/api/permissions/${pending?.id}/reply`, { reply: "always" })).status];
  }, 180_000);
  afterAll(async () => {
    await api?.close();
  });

  it.each(TABLE)("%s: asked as a control file, and not written", (p) => {
    const ask = asks.find((a) => a.patterns.includes(p));
    expect(ask, `no ask for ${p}`).toBeDefined();
    expect(ask?.metadata.control).toBe(true);
    expect(exists(api, p)).toBe(false);
  });

  it("ordinary files beside them are written without asking", () => {
    for (const p of ORDINARY)
      expect([p, asks.some((a) => a.patterns.includes(p)), exists(api, p)]).toEqual([p, false, true]);
  });

  it("'always' cannot answer a control file", () => {
    expect(always).toEqual([400]);
  });
});

describe("edit and apply_patch are judged the same way (acceptEdits)", () => {
  let api: Api;
  afterAll(async () => {
    await api?.close();
  });

  it("a patch that adds AGENTS.md and a crate's .cargo/config.toml, and edits of rust-toolchain.toml and a workflow, ask; rejected, nothing changes", async () => {
    api = testApi({
      files: {
        "README.md": "# Demo\n",
        "rust-toolchain.toml": '[toolchain]\nchannel = "stable"\n',
        ".github/workflows/ci.yml": "on: push\n",
      },
    });
    const add = (p: string) => `--- /dev/null\n+++ b/${p}\n@@ -0,0 +1 @@\n+evil\n`;
    const id = await startScripted(
      api,
      [
        call("apply_patch", { patch: add("AGENTS.md") + add("crates/app/.cargo/config.toml") }),
        call("edit", { path: "rust-toolchain.toml", oldString: '"stable"', newString: '"stable"\npath = "/tmp/evil"' }),
        call("edit", { path: ".github/workflows/ci.yml", oldString: "on: push", newString: "on: pull_request_target" }),
        { text: "done" },
      ],
      { mode: "acceptEdits" },
    );
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const asks = await driveAnswering(
      api,
      (s) => settle(api, s),
      id,
      () => ({ reply: "reject" }),
    );
    expect(asks.map((a) => [a.tool, a.metadata.control])).toEqual([
      ["apply_patch", true],
      ["edit", true],
      ["edit", true],
    ]);
    expect(exists(api, "AGENTS.md")).toBe(false);
    expect(exists(api, "crates/app/.cargo")).toBe(false);
    expect(fs.readFileSync(path.join(api.workspace, "rust-toolchain.toml"), "utf8")).not.toContain("evil");
    expect(fs.readFileSync(path.join(api.workspace, ".github/workflows/ci.yml"), "utf8")).toBe("on: push\n");
  });
});

describe.skipIf(!sandbox.available)("every control file planted by an allowed shell command is refused (auto)", () => {
  let api: Api;
  let outcome: { ok: boolean; text: string }[] = [];
  beforeAll(async () => {
    api = repo();
    const plant = (p: string) => `mkdir -p "$(dirname '${p}')" && printf '${PAYLOAD.replace(/\n/g, "\\n")}' > '${p}'`;
    const ordinary = ORDINARY.map(plant).join(" && ");
    const script = [...TABLE.map((p) => call("bash", { command: plant(p) })), call("bash", { command: ordinary })];
    const id = await startScripted(api, [...script, { text: "done" }], {
      mode: "auto",
    });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const { status, events } = await settle(api, id, 170_000);
    expect(status).toBe("idle");
    outcome = results(events).map((r) => ({ ok: r.ok, text: r.ok ? String(r.output) : String(r.error) }));
  }, 180_000);
  afterAll(async () => {
    await api?.close();
  });

  it.each(TABLE.map((p, i) => [p, i] as const))("%s: read-only or refused, and gone afterwards", (p, i) => {
    const o = outcome[i];
    expect(o, `no result for ${p}`).toBeDefined();
    const text = o?.text ?? "";
    const refused =
      o?.ok === false && /Refused: the command created control files that only a person may write/.test(text);
    expect(refused || /Read-only file system/.test(text), `${p}: ${text}`).toBe(true);
    expect(exists(api, p)).toBe(false);
  });

  it("ordinary files beside them are still written, and the call is not refused", () => {
    expect(outcome[TABLE.length]?.text).toMatch(/exit code 0$/);
    for (const p of ORDINARY) expect([p, exists(api, p)]).toEqual([p, true]);
  });
});
