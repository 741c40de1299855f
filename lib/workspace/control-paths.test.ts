import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { controlGuard, controlLinkTargets, isControlPath } from "./control-paths";

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
    [".github/workflows/ci.yml", false],
    ["README.md", false],
    [".", false],
    ["notes/.plangate-old/x", false],
  ])("%s → %s", (p, expected) => {
    expect(isControlPath(p)).toBe(expected);
  });
});

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
      expect(rel(g.cover)).toEqual([".codex", ".devcontainer", ".gemini", ".husky", ".idea", ".opencode"]);
      // Other agents' rule folders run nothing: checked after the command instead of covered.
      expect(rel(g.watch)).toEqual(expect.arrayContaining([".clinerules", ".kiro", ".roo"]));
      expect(rel(g.watch)).toEqual(
        expect.arrayContaining([
          ".envrc",
          ".bashrc",
          ".mcp.json",
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
