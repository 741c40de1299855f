import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isControlPath, protectedMounts } from "./control-paths";

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

describe("protectedMounts", () => {
  it("lists the control entries that exist at the top, inside .git only config, hooks and info, and never a symlink", () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-ctl-"));
    try {
      for (const d of [".plangate", ".git/hooks", ".git/objects", ".vscode"]) fs.mkdirSync(path.join(ws, d), { recursive: true });
      fs.writeFileSync(path.join(ws, ".git/config"), "");
      fs.writeFileSync(path.join(ws, ".npmrc"), "");
      fs.symlinkSync("/etc", path.join(ws, ".claude"));
      expect(protectedMounts(ws).map((p) => path.relative(ws, p)).sort()).toEqual([".git/config", ".git/hooks", ".npmrc", ".plangate", ".vscode"]);
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });
});
