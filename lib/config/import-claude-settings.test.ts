import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkspace, writeConfig } from "../../tests/helpers/config-workspace";
import { gateDecision, type GateCall } from "../../tests/helpers/gate-kit";
import {
  parseClaudeRule,
  translateBashSpec,
  translateClaudeSettings,
  type ClaudeSettings,
  type ClaudeSource,
} from "./import-claude-settings";
import { rulesToConfig } from "./imported-rules";

const home = os.homedir();

/** Translates the sources for a workspace, writes the result as its config, and asks the real gate. */
function importInto(sources: (ws: string) => ClaudeSource[]) {
  const w = makeWorkspace();
  const t = translateClaudeSettings(sources(w.ws), { workspace: w.ws, home });
  writeConfig(w.ws, { permission: rulesToConfig(t.rules) });
  return { ...w, t };
}

const source =
  (display: string, settings: ClaudeSettings) =>
  (ws: string): ClaudeSource => ({ display, settingsRoot: ws, settings });

describe("Claude Code rules, translated, decide in Plangate as in Claude Code", () => {
  let w: ReturnType<typeof importInto>;
  beforeAll(() => {
    // The denies come first, in the shared file; the allows in the local one: order must not matter (deny > ask > allow).
    const shared = source(".claude/settings.json", {
      permissions: {
        deny: ["Read(./.env)", "Bash(git push --force:*)", "Bash(rm -rf:*)", "Edit(src/generated/**)"],
        ask: ["Bash(git push:*)"],
      },
    });
    const local = source(".claude/settings.local.json", {
      permissions: { allow: ["Bash(npm test:*)", "Bash(git:*)", "Edit(src/**)", "Read", "Bash(npm run build)"] },
    });
    w = importInto((ws) => [shared(ws), local(ws)]);
  });
  afterAll(() => w.cleanup());

  it.each<[GateCall, "allow" | "ask" | "deny"]>([
    [{ tool: "bash", command: "npm test" }, "allow"],
    [{ tool: "bash", command: "npm test -- --watch" }, "allow"],
    [{ tool: "bash", command: "npm install" }, "ask"],
    [{ tool: "bash", command: "npm testing" }, "ask"],
    [{ tool: "bash", command: "npm run build" }, "allow"],
    [{ tool: "bash", command: "npm run build:prod" }, "ask"],
    [{ tool: "bash", command: "git commit -m wip" }, "allow"],
    [{ tool: "bash", command: "git push origin main" }, "ask"],
    [{ tool: "bash", command: "git push --force origin main" }, "deny"],
    [{ tool: "bash", command: "npm test && rm -rf build" }, "deny"],
    [{ tool: "bash", command: "npm test && curl -O https://example.com/x" }, "ask"],
    [{ tool: "write", path: "src/a/b.ts" }, "allow"],
    [{ tool: "write", path: "src/generated/api.ts" }, "deny"],
    [{ tool: "write", path: "lib/x.ts" }, "ask"],
    [{ tool: "write", path: "srcx/a.ts" }, "ask"],
    [{ tool: "read", path: ".env" }, "deny"],
    [{ tool: "read", path: "config/.env" }, "deny"],
    [{ tool: "read", path: ".env.example" }, "allow"],
    [{ tool: "read", path: "README.md" }, "allow"],
    [{ tool: "list", path: "src" }, "allow"],
  ])("%j → %s", async (call, expected) => {
    expect(await gateDecision(w.ws, call)).toBe(expected);
  });

  it("emits allow, then ask, then deny (Plangate's last match wins)", () => {
    const order = w.t.rules.map((r) => r.action);
    expect(order).toEqual(
      [...order].sort((a, b) => ["allow", "ask", "deny"].indexOf(a) - ["allow", "ask", "deny"].indexOf(b)),
    );
  });

  it.each<[ClaudeSettings, GateCall, "allow" | "ask" | "deny"]>([
    [{ permissions: { allow: ["Bash(ls:*)"], deny: ["Bash"] } }, { tool: "bash", command: "ls -la" }, "deny"],
    [{ permissions: { allow: ["Bash(make:*)"], ask: ["Bash"] } }, { tool: "bash", command: "make build" }, "ask"],
    [{ permissions: { allow: ["Bash(make *)"] } }, { tool: "bash", command: "make" }, "allow"],
    [{ permissions: { allow: ["Bash(git * main)"] } }, { tool: "bash", command: "git merge --no-ff main" }, "allow"],
    [{ permissions: { allow: ["Edit(/src/**/*.ts)"] } }, { tool: "write", path: "src/a/b.ts" }, "allow"],
    [{ permissions: { allow: ["Edit(/src/**/*.ts)"] } }, { tool: "write", path: "src/a/b.js" }, "ask"],
    [{ permissions: { allow: ["Edit"], deny: ["Edit(*.lock)"] } }, { tool: "write", path: "deps/pnpm.lock" }, "deny"],
    [{ permissions: { deny: ["Edit(src/*.ts)"] } }, { tool: "write", path: "src/a.ts" }, "deny"],
    [
      { permissions: { deny: [`Read(${home}/.ssh/**)`.replace(home, `/${home}`)] } },
      { tool: "read", path: `${home}/.ssh/id_ed25519` },
      "deny",
    ],
    [{ permissions: { deny: ["Read(~/.aws/**)"] } }, { tool: "read", path: "~/.aws/credentials" }, "deny"],
  ])("%j: %j → %s", async (settings, call, expected) => {
    const x = importInto((ws) => [source(".claude/settings.json", settings)(ws)]);
    try {
      expect(await gateDecision(x.ws, call)).toBe(expected);
    } finally {
      x.cleanup();
    }
  });

  it("lists what it cannot translate, with the reason, and never widens an allow", () => {
    const t = translateClaudeSettings(
      [
        {
          display: ".claude/settings.json",
          settingsRoot: "/ws",
          settings: {
            permissions: {
              allow: [
                "WebFetch(domain:example.com)",
                "mcp__github__create_issue",
                "Edit(src/*.ts)",
                "Task(my-reviewer)",
                "Grep(src/**)",
                "Frobnicate",
                "WebSearch",
                "Bash(echo ?)",
              ],
              deny: ["Edit(src/*.ts)"],
              defaultMode: "acceptEdits",
              additionalDirectories: ["../shared/"],
            },
          },
        },
      ],
      { workspace: "/ws", home: "/home/ann" },
    );
    const reasons = Object.fromEntries(t.untranslated.map((u) => [u.rule, u.reason]));
    expect(reasons["allow: WebFetch(domain:example.com)"]).toMatch(/no web fetch tool/);
    expect(reasons["allow: mcp__github__create_issue"]).toMatch(/MCP/);
    expect(reasons["allow: Edit(src/*.ts)"]).toMatch(/would allow more in Plangate/);
    expect(reasons["allow: Bash(echo ?)"]).toMatch(/would allow more/);
    expect(reasons["allow: Task(my-reviewer)"]).toMatch(/no subagent/);
    expect(reasons["allow: Grep(src/**)"]).toMatch(/search pattern/);
    expect(reasons["allow: Frobnicate"]).toMatch(/unknown tool/);
    expect(reasons["allow: WebSearch"]).toMatch(/web search/);
    expect(reasons["defaultMode: acceptEdits"]).toMatch(/session/);
    expect(reasons["additionalDirectories: ../shared/"]).toMatch(/external_directory/);
    // The deny is kept (matching more is the safe side for a deny) and says so.
    expect(t.rules.filter((r) => r.action === "deny").map((r) => r.pattern)).toEqual(["src/*.ts", "src/*.ts/*"]);
    expect(t.notes.map((n) => n.rule)).toContain("deny: Edit(src/*.ts)");
    expect(t.rules.some((r) => r.action === "allow")).toBe(false);
  });

  it.each([
    ["npm test:*", "npm test *"],
    ["npm run test:*", "npm run test *"],
    ["git:*", "git *"],
    ["*", "*"],
    ["npm run build", "npm run build"],
    ["ls*", "ls*"],
  ])("Bash(%s) → bash %j", (spec, pattern) => {
    expect(translateBashSpec(spec).pattern).toBe(pattern);
  });

  it("parses Tool and Tool(specifier)", () => {
    expect(parseClaudeRule("Bash(npm test:*)")).toEqual({ tool: "Bash", spec: "npm test:*" });
    expect(parseClaudeRule("Read")).toEqual({ tool: "Read" });
    expect(parseClaudeRule("mcp__github__create_issue")).toEqual({ tool: "mcp__github__create_issue" });
    expect(parseClaudeRule("(oops")).toBeNull();
  });
});
