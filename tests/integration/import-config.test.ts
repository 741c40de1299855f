import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadWorkspaceConfig } from "../../lib/workspace/workspace-config";
import { makeWorkspace } from "../helpers/config-workspace";
import { gateDecision } from "../helpers/gate-kit";

const root = path.resolve(import.meta.dirname, "../..");
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

const CLAUDE_SETTINGS = {
  $schema: "https://json.schemastore.org/claude-code-settings.json",
  permissions: {
    allow: [
      "Bash(npm test:*)",
      "Bash(npm run lint)",
      "Edit(src/**)",
      "Read(~/.npmrc)",
      "mcp__github__get_issue",
      "WebFetch(domain:docs.github.com)",
    ],
    ask: ["Bash(git push:*)"],
    deny: ["Read(./.env)", "Read(./secrets/**)", "Bash(curl:*)"],
    defaultMode: "acceptEdits",
  },
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo checked" }] }] },
  env: { NODE_ENV: "development" },
};
const CLAUDE_LOCAL = { permissions: { allow: ["Bash(npx prettier --write:*)"] } };
const OPENCODE_JSONC = `{
  "$schema": "https://opencode.ai/config.json",
  // the team's shared rules
  "permission": {
    "edit": "ask",
    "bash": { "*": "ask", "git status": "allow", "git diff *": "allow", "rm *": "deny" },
    "webfetch": "allow",
  },
  "agent": {
    "review": { "description": "Reviews changes", "mode": "subagent", "permission": { "edit": "deny", "bash": { "git log *": "allow" } } },
  },
}`;
const AGENT_MD = "---\ndescription: Writes docs\nmode: subagent\npermission:\n  edit: allow\n---\nYou write docs.\n";

function realWorkspace() {
  const w = makeWorkspace({
    ".claude/settings.json": JSON.stringify(CLAUDE_SETTINGS, null, 2),
    ".claude/settings.local.json": JSON.stringify(CLAUDE_LOCAL),
    "opencode.jsonc": OPENCODE_JSONC,
    ".opencode/agent/docs.md": AGENT_MD,
    "src/index.ts": "export {};\n",
  });
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-home-"));
  cleanups.push(w.cleanup, () => fs.rmSync(home, { recursive: true, force: true }));
  return { ws: w.ws, home };
}

function plangate(args: string[], home: string) {
  return spawnSync(process.execPath, ["bin/plangate.mjs", "import-config", ...args], {
    cwd: root,
    env: { ...process.env, HOME: home },
    encoding: "utf8",
    timeout: 60_000,
  });
}

const configFile = (ws: string) => path.join(ws, ".plangate", "config.json");

describe("plangate import-config", () => {
  it("without --write shows the result, the diff and what it cannot translate, and writes nothing", () => {
    const { ws, home } = realWorkspace();
    const r = plangate(["--workspace", ws], home);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Read: .claude/settings.json, .claude/settings.local.json, opencode.jsonc");
    expect(r.stdout).toContain('"npm test *": "allow"');
    expect(r.stdout).toContain("+++ .plangate/config.json\tafter the import");
    expect(r.stdout).toMatch(/Not translated:[\s\S]*mcp__github__get_issue: MCP tools/);
    expect(r.stdout).toMatch(/WebFetch\(domain:docs\.github\.com\): Plangate has no web fetch tool/);
    expect(r.stdout).toMatch(/permission\.webfetch: "allow": Plangate has no web fetch tool/);
    expect(r.stdout).toMatch(/\.opencode\/agent\/docs\.md: agent docs: agents written in Markdown/);
    expect(r.stdout).toMatch(/defaultMode: acceptEdits/);
    expect(r.stdout).toContain("Not written: run again with --write");
    expect(fs.existsSync(configFile(ws))).toBe(false);
  });

  it("with --write writes a config Plangate's own loader accepts and whose rules decide as the sources did", async () => {
    const { ws, home } = realWorkspace();
    const r = plangate(["--workspace", ws, "--write"], home);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Wrote .plangate/config.json.");
    const config = loadWorkspaceConfig(ws);
    expect(config.error).toBeUndefined();
    expect(config.agents?.review).toMatchObject({ description: "Reviews changes", mode: "subagent" });
    const decisions = await Promise.all([
      gateDecision(ws, { tool: "bash", command: "npm test -- --watch" }),
      gateDecision(ws, { tool: "bash", command: "npm install" }),
      gateDecision(ws, { tool: "bash", command: "npx prettier --write src" }),
      gateDecision(ws, { tool: "bash", command: "git push origin main" }),
      gateDecision(ws, { tool: "bash", command: "curl -s https://example.com" }),
      gateDecision(ws, { tool: "bash", command: "rm -rf dist" }),
      gateDecision(ws, { tool: "write", path: "src/a/b.ts" }),
      gateDecision(ws, { tool: "write", path: "README.md" }),
      gateDecision(ws, { tool: "read", path: ".env" }),
      gateDecision(ws, { tool: "read", path: "secrets/prod.key" }),
      gateDecision(ws, { tool: "read", path: "src/index.ts" }),
      gateDecision(ws, { tool: "bash", command: "git log -5" }, { agent: "review" }),
      gateDecision(ws, { tool: "bash", command: "rm -rf dist" }, { agent: "review" }),
    ]);
    expect(decisions).toEqual([
      "allow",
      "ask",
      "allow",
      "ask",
      "deny",
      "deny",
      "allow",
      "ask",
      "deny",
      "deny",
      "allow",
      "allow",
      "deny",
    ]);
    // Written, the file is untrusted until a person trusts it: its allow rules wait, its denies apply now.
    expect(r.stdout).toMatch(/Its allow rules apply only once a person trusts this content/);
    const untrusted = await Promise.all([
      gateDecision(ws, { tool: "bash", command: "npm test -- --watch" }, { trusted: false }),
      gateDecision(ws, { tool: "write", path: "src/a/b.ts" }, { trusted: false }),
      gateDecision(ws, { tool: "bash", command: "curl -s https://example.com" }, { trusted: false }),
      gateDecision(ws, { tool: "read", path: "secrets/prod.key" }, { trusted: false }),
    ]);
    expect(untrusted).toEqual(["ask", "ask", "deny", "deny"]);
    await expect(
      gateDecision(ws, { tool: "bash", command: "git log -5" }, { agent: "review", trusted: false }),
    ).rejects.toThrow(/no person has trusted yet/);
    // OpenCode lays an agent's own rules over the workspace's; Plangate the other way round. Where that changes
    // the answer (the review agent's edit deny under the workspace's edit rules) it is reported, not hidden.
    expect(r.stdout).toMatch(
      /agents\.review: edit "x": opencode\.jsonc says deny \(agent\.review\.permission\.edit "\*": deny\); workspace-wide rules of opencode\.jsonc answers ask/,
    );

    // Once more: nothing left to change.
    const again = plangate(["--workspace", ws, "--write"], home);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("Nothing to change");
  });

  it("merges into an existing config: keeps its keys and rules, reports conflicts", () => {
    const { ws, home } = realWorkspace();
    fs.mkdirSync(path.join(ws, ".plangate"));
    fs.writeFileSync(
      configFile(ws),
      JSON.stringify({ verify: { command: "npm test" }, permission: { bash: { "curl *": "allow" } } }, null, 2),
    );
    const r = plangate(["--workspace", ws, "--write", "--json"], home);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as {
      written: boolean;
      config: { verify: unknown; permission: { bash: Record<string, string> } };
      conflicts: { input: string }[];
    };
    expect(out.written).toBe(true);
    expect(out.config.verify).toEqual({ command: "npm test" });
    expect(out.config.permission.bash["curl *"]).toBe("allow");
    expect(out.conflicts.map((c) => c.input)).toContain("curl x");
    expect(JSON.parse(fs.readFileSync(configFile(ws), "utf8"))).toEqual(out.config);
  });

  it("reads ~/.claude/settings.json only with --user", () => {
    const { ws, home } = realWorkspace();
    fs.mkdirSync(path.join(home, ".claude"));
    fs.writeFileSync(
      path.join(home, ".claude", "settings.json"),
      JSON.stringify({ permissions: { deny: ["Bash(sudo:*)"] } }),
    );
    const without = JSON.parse(plangate(["--workspace", ws, "--json"], home).stdout) as {
      sources: string[];
      config: { permission: { bash: Record<string, string> } };
    };
    expect(without.sources).not.toContain("~/.claude/settings.json");
    const withUser = JSON.parse(plangate(["--workspace", ws, "--json", "--user"], home).stdout) as typeof without;
    expect(withUser.sources[0]).toBe("~/.claude/settings.json");
    expect(withUser.config.permission.bash["sudo *"]).toBe("deny");
  });

  it.each([
    [
      ".claude/settings.json",
      JSON.stringify({ permissions: { allow: "Bash(npm test:*)" } }),
      ".claude/settings.json: permissions.allow:",
    ],
    [
      ".claude/settings.local.json",
      JSON.stringify({ permissions: { deny: ["Read(.env)", 7] } }),
      ".claude/settings.local.json: permissions.deny[1]:",
    ],
    [
      "opencode.json",
      JSON.stringify({ permission: { bash: { "git *": "yes" } } }),
      'opencode.json: permission.bash["git *"]:',
    ],
    ["opencode.json", "{ nope", "opencode.json: not valid JSON"],
    [
      ".plangate/config.json",
      JSON.stringify({ permision: {} }),
      ".plangate/config.json: (the whole file): Unrecognized key",
    ],
  ])("a malformed %s is named with its field, and nothing is written", (file, text, message) => {
    const { ws, home } = realWorkspace();
    fs.mkdirSync(path.dirname(path.join(ws, file)), { recursive: true });
    fs.writeFileSync(path.join(ws, file), text);
    const before = fs.existsSync(configFile(ws)) ? fs.readFileSync(configFile(ws), "utf8") : null;
    const r = plangate(["--workspace", ws, "--write"], home);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain("Nothing was written.");
    expect(fs.existsSync(configFile(ws)) ? fs.readFileSync(configFile(ws), "utf8") : null).toBe(before);
  });

  it("refuses unknown arguments", () => {
    const r = plangate(["--frobnicate"], os.tmpdir());
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown argument --frobnicate");
  });
});
