import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { controlTargets, isControlPath } from "./control-paths";

describe("isControlPath", () => {
  it.each<[string, boolean]>([
    [".plangate/config.json", true],
    [".plangate", true],
    [".git/config", true],
    [".git/hooks/pre-commit", true],
    ["sub/.git/config", true],
    [".claude/settings.json", true],
    [".opencode/plugin/x.js", true],
    [".vscode/tasks.json", true],
    [".bashrc", true],
    ["pkg/.npmrc", true],
    [".envrc", true],
    [".mcp.json", true],
    // Case-insensitive file systems (macOS, SMB): the same files.
    [".Claude/settings.json", true],
    [".GIT/config", true],
    ["opencode.json", true],
    ["sub/opencode.jsonc", true],
    [".pre-commit-config.yaml", true],
    ["lefthook.yml", true],
    [".pnpmfile.cjs", true],
    [".clinerules/rules.md", true],
    [".kiro/steering/x.md", true],
    ["docs/opencode.json.md", false],
    ["src/.bashrc.md", false],
    ["src/app.ts", false],
    ["docs/git/config", false],
    [".github/ISSUE_TEMPLATE/bug.md", false],
    [".github", false],
    ["README.md", false],
    [".", false],
    ["notes/.plangate-old/x", false],
    // Issue 41: programs on the host run these by themselves, or later agents obey them (any depth, any case).
    [".cargo/config.toml", true],
    [".cargo/config", true],
    ["crates/app/.cargo/config.toml", true],
    ["rust-toolchain", true],
    ["rust-toolchain.toml", true],
    ["crates/app/rust-toolchain.toml", true],
    [".devcontainer.json", true],
    [".hg/hgrc", true],
    [".hg", true],
    [".jj/repo/config.toml", true],
    ["demo.code-workspace", true],
    ["sub/Team.CODE-WORKSPACE", true],
    [".zed/settings.json", true],
    [".helix/languages.toml", true],
    ["mise.local.toml", true],
    [".mise.local.toml", true],
    ["mise.dev.toml", true],
    [".mise.ci.local.toml", true],
    [".mise/config.toml", true],
    [".config/mise.toml", true],
    [".config/mise/conf.d/x.toml", true],
    ["mise/config.toml", true],
    [".tool-versions", true],
    ["AGENTS.md", true],
    ["agents.md", true],
    ["packages/api/AGENTS.md", true],
    ["AGENTS.override.md", true],
    ["CLAUDE.md", true],
    ["CLAUDE.local.md", true],
    ["GEMINI.md", true],
    [".github/copilot-instructions.md", true],
    [".github/instructions/ts.instructions.md", true],
    [".github/agents/fixer.md", true],
    [".cursorrules", true],
    [".windsurfrules", true],
    [".rules", true],
    [".aider.conf.yml", true],
    [".github/workflows/ci.yml", true],
    [".github/workflows", true],
    [".gitlab-ci.yml", true],
    [".circleci/config.yml", true],
    [".lfsconfig", true],
    [".yarn/releases/yarn-4.1.0.cjs", true],
    [".bundle/config", true],
    [".nvim.lua", true],
    [".dir-locals.el", true],
    ["uv.toml", true],
    // The line: project source and plain data, which the person reviews in the diff.
    ["Makefile", false],
    ["package.json", false],
    ["Cargo.toml", false],
    ["build.rs", false],
    ["pyproject.toml", false],
    [".nvmrc", false],
    [".node-version", false],
    [".python-version", false],
    [".env", false],
    [".gitattributes", false],
    ["docs/agents-guide.md", false],
    ["src/cargo/config.toml", false],
    ["src/mise.ts", false],
    ["workflows/ci.yml", false],
    [".yarn/cache/x.zip", false],
    ["node_modules/.bin/x", false],
  ])("%s → %s", (p, expected) => {
    expect(isControlPath(p)).toBe(expected);
  });
});

describe("controlTargets: what the repository's git config points at, read at the time of the call", () => {
  let ws: string;
  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-ctl-")));
    fs.mkdirSync(path.join(ws, ".git"));
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));
  const config = (text: string, file = ".git/config") => fs.writeFileSync(path.join(ws, file), text);

  it("the hooks folder core.hooksPath names, relative to the working tree; an included file; a filter's program", () => {
    config(
      [
        "[core]",
        "\trepositoryformatversion = 0",
        '\thooksPath = "tools/git hooks" ; where the team keeps them',
        "[include]\n\tpath = ../team.gitconfig",
        '[includeIf "gitdir:~/work/"]',
        "\tpath = ../conf/extra.inc",
        '[filter "lfsx"]',
        "\tsmudge = ./scripts/smudge.sh %f",
        "\tclean = cat",
        '[alias]\n\tup = "!sh bin/up.sh"',
      ].join("\n"),
    );
    expect(controlTargets(ws).sort()).toEqual([
      "bin/up.sh",
      "conf/extra.inc",
      "scripts/smudge.sh",
      "team.gitconfig",
      "tools/git hooks",
    ]);
  });

  it("follows includes inside the workspace (a hooksPath set there counts); never a link that leads out", () => {
    config("[include]\n\tpath = ../conf/a.inc\n[include]\n\tpath = ../conf/out.inc\n");
    fs.mkdirSync(path.join(ws, "conf"));
    fs.writeFileSync(path.join(ws, "conf/a.inc"), "[core]\n\thooksPath = .githooks\n");
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-out-"));
    fs.writeFileSync(path.join(outside, "x"), "[core]\n\thooksPath = leaked\n");
    fs.symlinkSync(path.join(outside, "x"), path.join(ws, "conf/out.inc"));
    try {
      expect(controlTargets(ws).sort()).toEqual([".githooks", "conf/a.inc", "conf/out.inc"]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("a hooksPath that is the workspace itself makes git's hook names at the top control, not every file", () => {
    config("[core]\n\thooksPath = .\n");
    const targets = controlTargets(ws);
    expect(targets).toContain("pre-commit");
    expect(targets).toContain("post-checkout");
    expect(targets).not.toContain(".");
  });

  it("config.worktree counts; a file too large, a FIFO or a folder in place of the config is skipped, not read", () => {
    config("[core]\n\thooksPath = wt-hooks\n", ".git/config.worktree");
    expect(controlTargets(ws)).toEqual(["wt-hooks"]);
    config(`[core]\n\thooksPath = big\n${"#".repeat(300 * 1024)}\n`);
    expect(controlTargets(ws)).toEqual(["wt-hooks"]);
    fs.rmSync(path.join(ws, ".git/config.worktree"));
    execFileSync("mkfifo", [path.join(ws, ".git/config.worktree")]);
    expect(controlTargets(ws)).toEqual([]);
  });

  it("a gitdir file that leads to a folder inside the workspace makes that folder's settings control", () => {
    fs.rmdirSync(path.join(ws, ".git"));
    fs.mkdirSync(path.join(ws, "store/hooks"), { recursive: true });
    fs.writeFileSync(path.join(ws, ".git"), "gitdir: store\n");
    fs.writeFileSync(path.join(ws, "store/config"), "[core]\n\tbare = false\n");
    const targets = controlTargets(ws);
    for (const t of ["store/config", "store/hooks", "store/info"]) expect(targets).toContain(t);
    expect(targets).not.toContain("store/objects");
  });

  it("the repository around the workspace counts too, and a nested repository for paths inside it", () => {
    fs.rmdirSync(path.join(ws, ".git"));
    const inner = path.join(ws, "project");
    fs.mkdirSync(path.join(inner, "vendor/lib/.git"), { recursive: true });
    fs.writeFileSync(path.join(inner, "vendor/lib/.git/config"), "[core]\n\thooksPath = h\n");
    fs.mkdirSync(path.join(ws, ".git"));
    config("[core]\n\thooksPath = project/tools/hooks\n");
    expect(controlTargets(inner)).toEqual(["tools/hooks"]);
    expect(controlTargets(inner, "vendor/lib/h/pre-commit").sort()).toEqual(["tools/hooks", "vendor/lib/h"]);
  });

  it("a hooks folder reached through a link is control where it leads", () => {
    config("[core]\n\thooksPath = hooks\n");
    fs.mkdirSync(path.join(ws, "tools/h"), { recursive: true });
    fs.symlinkSync("tools/h", path.join(ws, "hooks"));
    expect(controlTargets(ws).sort()).toEqual(["hooks", "tools/h"]);
  });

  it("a link named like the folder of a control subpath makes that subpath control where it leads", () => {
    fs.mkdirSync(path.join(ws, "ci/workflows"), { recursive: true });
    fs.symlinkSync("ci", path.join(ws, ".github"));
    expect(controlTargets(ws)).toEqual(["ci/workflows", "ci/copilot-instructions.md", "ci/instructions", "ci/agents"]);
  });
});
