import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONTROL_SUBPATHS, controlTargets, isControlPath } from "./control-paths";

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
    // Issue 41, by principle: the siblings of what was listed (interpreters' and debuggers' start-up files, hook
    // managers and what their hooks run, build tools' launchers, editors and dev environments, agents).
    [".vimrc", true],
    [".gvimrc", true],
    [".Rprofile", true],
    [".Renviron", true],
    [".iex.exs", true],
    [".irbrc", true],
    [".pryrc", true],
    [".pdbrc", true],
    [".octaverc", true],
    [".ghci", true],
    [".ocamlinit", true],
    [".gdbinit", true],
    [".lintstagedrc", true],
    [".lintstagedrc.json", true],
    ["lint-staged.config.js", true],
    ["packages/web/lint-staged.config.mjs", true],
    ["commitlint.config.js", true],
    [".commitlintrc.yml", true],
    [".overcommit.yml", true],
    [".simple-git-hooks.json", true],
    ["simple-git-hooks.cjs", true],
    [".huskyrc.json", true],
    ["lefthook.toml", true],
    ["gradle/wrapper/gradle-wrapper.properties", true],
    ["android/gradle/wrapper/gradle-wrapper.jar", true],
    ["gradle.properties", true],
    [".mvn/wrapper/maven-wrapper.properties", true],
    [".mvn/extensions.xml", true],
    [".mvn/jvm.config", true],
    ["nuget.config", true],
    ["NuGet.Config", true],
    ["global.json", true],
    [".bazelrc", true],
    [".bazelversion", true],
    [".jvmopts", true],
    [".sbtopts", true],
    [".rvmrc", true],
    ["project.sublime-project", true],
    [".theia/tasks.json", true],
    [".gitpod.yml", true],
    ["devbox.json", true],
    [".flox/env/manifest.toml", true],
    ["CRUSH.md", true],
    [".crush.json", true],
    ["WARP.md", true],
    [".kilocode/rules/rules.md", true],
    [".trae/rules/project_rules.md", true],
    [".augment/rules/rules.md", true],
    [".augment-guidelines", true],
    [".continuerules", true],
    [".roomodes", true],
    [".aiderignore", true],
    [".cursorignore", true],
    [".github/prompts/release.prompt.md", true],
    [".github/chatmodes/plan.chatmode.md", true],
    [".github/actions/setup/action.yml", true],
    [".github/dependabot.yml", true],
    [".cirrus.yml", true],
    [".semaphore/semaphore.yml", true],
    [".gitconfig", true],
    [".bzr/branch/branch.conf", true],
    // The line: project source and plain data, which the person reviews in the diff.
    ["eslint.config.js", false],
    ["jest.config.ts", false],
    [".pylintrc", false],
    ["build.gradle.kts", false],
    ["pom.xml", false],
    ["gradlew", false],
    [".sdkmanrc", false],
    ["flake.nix", false],
    ["src/wrapper/x.ts", false],
    ["docs/crush.md.txt", false],
    [".github/CODEOWNERS", false],
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

  it("every word of a program git runs that could name a file, from the top folder, whether it exists or not", () => {
    config(
      [
        '[filter "fmt"]\n\tclean = sh fmt-clean.sh %f',
        '[diff "pdf"]\n\ttextconv = python3 -B tools/pdf2txt.py',
        "[core]\n\tpager = less -R\n\tgitProxy = proxy/run\n\teditor = vim",
        "[credential]\n\thelper = store --file=creds",
        '[submodule "v"]\n\tupdate = !sh up.sh',
        '[trailer "s"]\n\tcommand = "LANG=C ./sign.sh $ARG > out.txt"',
        '[alias]\n\tst = status\n\tship = "!f() { sh ship.sh; }; f"',
      ].join("\n"),
    );
    expect(controlTargets(ws).sort()).toEqual([
      "fmt-clean.sh",
      "out.txt",
      "proxy/run",
      "ship.sh",
      "sign.sh",
      "tools/pdf2txt.py",
      "up.sh",
    ]);
  });

  it("a program named without a slash is looked for in the PATH entries that are relative to the top folder", () => {
    config("[core]\n\teditor = prettier-edit --wait\n");
    const before = { ...process.env };
    // Only this repository's config: the machine's own (a credential helper) would be looked for there too.
    const none = path.join(os.tmpdir(), "plangate-no-such-config");
    Object.assign(process.env, {
      PATH: `/usr/bin${path.delimiter}node_modules/.bin`,
      GIT_CONFIG_GLOBAL: none,
      GIT_CONFIG_SYSTEM: none,
      XDG_CONFIG_HOME: none,
    });
    try {
      expect(controlTargets(ws)).toEqual(["node_modules/.bin/prettier-edit"]);
    } finally {
      process.env = before;
    }
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
    const github = CONTROL_SUBPATHS.filter((s) => s.startsWith(".github/"));
    expect(github).toEqual(expect.arrayContaining([".github/workflows", ".github/copilot-instructions.md"]));
    expect(controlTargets(ws)).toEqual(github.map((s) => s.replace(".github/", "ci/")));
  });
});
