import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { controlLinkTargets } from "./control-paths";
import { controlGuard, newControlEntries } from "./control-guard";

describe("controlGuard", () => {
  it("mounts what exists read-only (a link where it leads, inside the workspace), covers missing folders, watches missing files and .git's inner entries, pins .git", () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-ctl-")));
    try {
      for (const d of [".plangate", ".git/hooks", ".git/objects/info", ".vscode", "cfg"])
        fs.mkdirSync(path.join(ws, d), { recursive: true });
      fs.writeFileSync(path.join(ws, ".git/config"), "");
      fs.writeFileSync(path.join(ws, ".npmrc"), "");
      fs.symlinkSync("/etc", path.join(ws, ".claude"));
      fs.symlinkSync("cfg", path.join(ws, ".cursor"));
      const g = controlGuard(ws);
      const rel = (list: string[]) => list.map((p) => path.relative(ws, p)).sort();
      expect(rel(g.readOnly)).toEqual([".git/config", ".git/hooks", ".npmrc", ".plangate", ".vscode", "cfg"]);
      expect(rel(g.pin)).toEqual([".git"]);
      expect(rel(g.cover)).toEqual([
        ".amp",
        ".cargo",
        ".codex",
        ".crush",
        ".devcontainer",
        ".factory",
        ".fleet",
        ".gemini",
        ".helix",
        ".hg",
        ".husky",
        ".idea",
        ".jj",
        ".kilo",
        ".kilocode",
        ".mise",
        ".opencode",
        ".openhands",
        ".pi",
        ".qwen",
        ".sl",
        ".zed",
      ]);
      // Other agents' rule folders run nothing, CI folders act once pushed: checked after the command instead of covered.
      expect(rel(g.watch)).toEqual(expect.arrayContaining([".clinerules", ".kiro", ".roo", ".circleci", ".junie"]));
      expect(rel(g.watch)).toEqual(
        expect.arrayContaining([
          ".git/commondir",
          ".git/config.worktree",
          ".git/info",
          ".git/objects/info/alternates",
          ".git/worktrees",
          ".git/modules",
        ]),
      );
      expect(rel(g.watch)).not.toContain(".npmrc");
      expect(controlLinkTargets(ws)).toEqual(["cfg"]);
      expect(rel(g.known.map((k) => k.split("\0")[0] as string))).toEqual([
        ".claude",
        ".cursor",
        ".git",
        ".git/config",
        ".git/hooks",
        ".npmrc",
        ".plangate",
        ".vscode",
        "cfg",
      ]);
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it("covers a missing .git (a command cannot make the workspace a repository with a planted config)", () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-ctl-")));
    try {
      const g = controlGuard(ws);
      expect(g.cover.map((p) => path.basename(p))).toContain(".git");
      expect(g.pin).toEqual([]);
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});

describe("controlGuard at every depth, and what git config points at", () => {
  function workspace(files: Record<string, string>): string {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-ctl-")));
    for (const [rel, text] of Object.entries(files)) {
      if (rel.endsWith("/")) fs.mkdirSync(path.join(ws, rel), { recursive: true });
      else {
        fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
        fs.writeFileSync(path.join(ws, rel), text);
      }
    }
    return ws;
  }

  it("nested control entries that exist are read-only; a nested .git is pinned with its settings read-only; dependencies are not walked", () => {
    const ws = workspace({
      "crates/app/.cargo/config.toml": "",
      "crates/app/src/main.rs": "",
      "docs/AGENTS.md": "",
      "team.code-workspace": "",
      ".github/workflows/ci.yml": "",
      ".github/ISSUE_TEMPLATE/bug.md": "",
      "vendor/lib/.git/config": "",
      "node_modules/pkg/.cargo/config.toml": "",
    });
    try {
      const g = controlGuard(ws);
      const rel = (list: string[]) => list.map((p) => path.relative(ws, p)).sort();
      expect(rel(g.readOnly)).toEqual([
        ".github/workflows",
        "crates/app/.cargo",
        "docs/AGENTS.md",
        "team.code-workspace",
        "vendor/lib/.git/config",
      ]);
      expect(rel(g.pin)).toEqual(["vendor/lib/.git"]);
      expect(rel(g.watch)).toContain("vendor/lib/.git/hooks");
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it("the hooks folder core.hooksPath names is read-only when it exists, checked after when it does not", () => {
    const ws = workspace({ ".git/config": "[core]\n\thooksPath = .githooks\n", ".githooks/pre-commit": "" });
    try {
      expect(controlGuard(ws).readOnly).toContain(path.join(ws, ".githooks"));
      fs.rmSync(path.join(ws, ".githooks"), { recursive: true });
      expect(controlGuard(ws).watch).toContain(path.join(ws, ".githooks"));
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it("newControlEntries names what appeared at any depth since the guard was taken, and nothing that was there", () => {
    const ws = workspace({ "crates/app/src/main.rs": "", "AGENTS.md": "", "src/a.ts": "", "docs/CLAUDE.md": "" });
    try {
      const g = controlGuard(ws);
      fs.mkdirSync(path.join(ws, "crates/app/.cargo"));
      fs.writeFileSync(path.join(ws, "crates/app/.cargo/config.toml"), "");
      fs.mkdirSync(path.join(ws, "deep/er/still"), { recursive: true });
      fs.writeFileSync(path.join(ws, "deep/er/still/CLAUDE.md"), "");
      fs.writeFileSync(path.join(ws, "src/b.ts"), "");
      fs.writeFileSync(path.join(ws, "AGENTS.md"), "changed in place");
      fs.renameSync(path.join(ws, "crates/app/src"), path.join(ws, "crates/app/src2"));
      // A guarded entry's folder renamed and rebuilt: the entry in its place is not the one guarded.
      fs.renameSync(path.join(ws, "docs"), path.join(ws, "docs2"));
      fs.mkdirSync(path.join(ws, "docs"));
      fs.writeFileSync(path.join(ws, "docs/CLAUDE.md"), "planted");
      expect(
        newControlEntries(ws, g)
          .map((p) => path.relative(ws, p))
          .sort(),
      ).toEqual(["crates/app/.cargo", "deep/er/still/CLAUDE.md", "docs/CLAUDE.md", "docs2/CLAUDE.md"]);
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it("a guarded hooks folder whose parent was renamed and rebuilt is named after, as is the one moved away", () => {
    const ws = workspace({ ".git/config": "[core]\n\thooksPath = tools/hooks\n", "tools/hooks/pre-commit": "" });
    try {
      const g = controlGuard(ws);
      expect(g.readOnly).toContain(path.join(ws, "tools/hooks"));
      fs.renameSync(path.join(ws, "tools"), path.join(ws, "tools2"));
      fs.mkdirSync(path.join(ws, "tools/hooks"), { recursive: true });
      fs.writeFileSync(path.join(ws, "tools/hooks/pre-commit"), "evil");
      expect(newControlEntries(ws, g)).toEqual([path.join(ws, "tools/hooks")]);
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it("a git folder a gitdir file leads to inside the workspace is pinned, its settings guarded like .git's", () => {
    const ws = workspace({ ".git": "gitdir: store\n", "store/config": "", "store/HEAD": "", "store/hooks/": "" });
    try {
      const g = controlGuard(ws);
      const rel = (list: string[]) => list.map((p) => path.relative(ws, p)).sort();
      expect(rel(g.pin)).toEqual(["store"]);
      expect(rel(g.readOnly)).toEqual([".git", "store/config", "store/hooks"]);
      expect(rel(g.watch)).toEqual(expect.arrayContaining(["store/info", "store/commondir"]));
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it("where a .github link leads, its workflows folder is read-only (or checked after)", () => {
    const ws = workspace({ "ci/workflows/ci.yml": "", "src/a.ts": "" });
    try {
      fs.symlinkSync("ci", path.join(ws, ".github"));
      const g = controlGuard(ws);
      expect(g.readOnly).toContain(path.join(ws, "ci/workflows"));
      expect(g.watch).toContain(path.join(ws, "ci/copilot-instructions.md"));
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});
