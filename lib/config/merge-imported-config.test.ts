import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, writeConfig } from "../../tests/helpers/config-workspace";
import { gateDecision } from "../../tests/helpers/gate-kit";
import { buildConfigImport } from "./build-config-import";
import type { ClaudeSettings } from "./import-claude-settings";
import type { OpenCodeConfig } from "./import-opencode-config";
import { EXISTING, type WorkspaceConfigData } from "./merge-imported-config";
import type { ImportSources } from "./read-import-sources";

const ctx = { workspace: "/ws", home: "/home/ann" };
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function sources(claude?: ClaudeSettings, opencode?: OpenCodeConfig): ImportSources {
  return {
    claude: claude ? [{ display: ".claude/settings.json", settingsRoot: "/ws", settings: claude }] : [],
    opencode: opencode ? { display: "opencode.json", config: opencode } : null,
    unread: [],
  };
}

/** A workspace holding the merged config, to ask the real gate about it. */
function workspaceOf(config: WorkspaceConfigData): string {
  const w = makeWorkspace();
  cleanups.push(w.cleanup);
  writeConfig(w.ws, config);
  return w.ws;
}

describe("merging imported rules into an existing .plangate/config.json", () => {
  it("keeps every existing key, and existing rules keep deciding what they match", async () => {
    const existing: WorkspaceConfigData = {
      permission: { bash: { "npm test": "allow", "rm *": "allow" }, edit: "ask" },
      plansDirectory: "docs/plans",
      verify: { command: "npm test" },
    };
    const r = buildConfigImport(
      sources({ permissions: { allow: ["Bash(git:*)", "Edit(src/**)"], deny: ["Bash(rm:*)"] } }),
      existing,
      ctx,
    );
    expect(r.config.plansDirectory).toBe("docs/plans");
    expect(r.config.verify).toEqual({ command: "npm test" });
    // Imported patterns go first; "rm *" is already there, so the existing action stays, and that is reported.
    expect(r.config.permission).toEqual({
      bash: { "git *": "allow", "npm test": "allow", "rm *": "allow" },
      edit: { "src/*": "allow", "*": "ask" },
    });
    expect(r.conflicts).toContainEqual(
      expect.objectContaining({
        permission: "bash",
        input: "rm x",
        wanted: { action: "deny", from: ".claude/settings.json", rule: "deny: Bash(rm:*)" },
        decided: { action: "allow", from: EXISTING, rule: 'bash "rm *" → allow' },
      }),
    );
    expect(r.conflicts).toContainEqual(
      expect.objectContaining({
        permission: "edit",
        input: "src/x",
        decided: expect.objectContaining({ action: "ask" }),
      }),
    );
    const ws = workspaceOf(r.config);
    expect(await gateDecision(ws, { tool: "bash", command: "npm test" })).toBe("allow");
    expect(await gateDecision(ws, { tool: "bash", command: "git commit -m x" })).toBe("allow");
    expect(await gateDecision(ws, { tool: "write", path: "src/a.ts" })).toBe("ask");
  });

  it("changes nothing when run again on its own result", () => {
    const s = sources(
      { permissions: { allow: ["Bash(npm test:*)"], deny: ["Read(./.env)"] } },
      { permission: { bash: { "*": "ask", "git *": "allow" } }, agent: { review: { permission: { edit: "deny" } } } },
    );
    const first = buildConfigImport(s, { permission: { edit: "ask" } }, ctx);
    expect(first.changed).toBe(true);
    const second = buildConfigImport(s, first.config, ctx);
    expect(second.changed).toBe(false);
    expect(second.config).toEqual(first.config);
  });

  it("reports a workspace-wide rule that overrides an agent's own (Plangate applies them after it; OpenCode before)", () => {
    const r = buildConfigImport(
      sources(undefined, {
        permission: { bash: { "*": "ask" } },
        agent: { review: { permission: { bash: { "git *": "allow" } } } },
      }),
      {},
      ctx,
    );
    expect(r.config.agents?.review?.permission).toEqual({ bash: { "git *": "allow" } });
    expect(r.conflicts).toContainEqual(
      expect.objectContaining({
        scope: "agents.review",
        permission: "bash",
        input: "git x",
        wanted: expect.objectContaining({ action: "allow" }),
        decided: expect.objectContaining({ action: "ask" }),
      }),
    );
  });

  it("reports where Claude Code's rules overrule OpenCode's (they come later)", () => {
    const r = buildConfigImport(
      sources({ permissions: { allow: ["Bash(rm:*)"] } }, { permission: { bash: { "rm *": "deny" } } }),
      {},
      ctx,
    );
    expect(r.config.permission).toEqual({ bash: { "rm *": "allow" } });
    expect(r.conflicts).toContainEqual(
      expect.objectContaining({
        input: "rm x",
        wanted: expect.objectContaining({ action: "deny", from: "opencode.json" }),
        decided: expect.objectContaining({ action: "allow" }),
      }),
    );
  });

  it("adds an agent next to the existing ones and keeps their settings", () => {
    const existing: WorkspaceConfigData = {
      agents: {
        docs: { description: "Writes docs", readOnly: false, permission: { edit: { "*": "deny", "docs/*": "allow" } } },
      },
    };
    const r = buildConfigImport(
      sources(undefined, {
        agent: {
          docs: { permission: { bash: "deny" } },
          review: { description: "Reviews", mode: "subagent", permission: { edit: "deny" } },
        },
      }),
      existing,
      ctx,
    );
    expect(r.config.agents).toEqual({
      docs: {
        description: "Writes docs",
        readOnly: false,
        permission: { bash: "deny", edit: { "*": "deny", "docs/*": "allow" } },
      },
      review: { description: "Reviews", mode: "subagent", permission: { edit: "deny" } },
    });
    expect(r.conflicts).toEqual([]);
  });

  it("nothing read, nothing changed", () => {
    const r = buildConfigImport(sources(), { permission: { bash: "ask" } }, ctx);
    expect(r).toMatchObject({ changed: false, translated: 0, conflicts: [], untranslated: [] });
  });
});
