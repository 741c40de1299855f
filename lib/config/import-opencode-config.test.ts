import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, writeConfig } from "../../tests/helpers/config-workspace";
import { gateDecision, type GateCall } from "../../tests/helpers/gate-kit";
import { evaluate, fromConfig } from "../permission";
import {
  mergeOpenCodeConfigs,
  opencodeConfigSchema,
  translateOpenCodeConfig,
  type OpenCodeConfig,
} from "./import-opencode-config";
import { rulesToConfig } from "./imported-rules";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** Translates an OpenCode config into a fresh workspace's .plangate/config.json, as the command would. */
function importInto(config: OpenCodeConfig) {
  const w = makeWorkspace();
  cleanups.push(w.cleanup);
  const t = translateOpenCodeConfig(opencodeConfigSchema.parse(config), { source: "opencode.json", workspace: w.ws });
  const agents = Object.fromEntries(
    t.agents.map((a) => [a.name, { ...(a.mode ? { mode: a.mode } : {}), permission: rulesToConfig(a.rules) }]),
  );
  writeConfig(w.ws, { permission: rulesToConfig(t.rules), ...(t.agents.length > 0 ? { agents } : {}) });
  return { ws: w.ws, t };
}

describe("OpenCode permission blocks, translated, decide in Plangate as in OpenCode", () => {
  it.each<[OpenCodeConfig, GateCall, "allow" | "ask" | "deny"]>([
    // OpenCode evaluates last match wins too: a catch-all written last overrides what comes before it.
    [{ permission: { bash: { "git push": "ask", "*": "allow" } } }, { tool: "bash", command: "git push" }, "allow"],
    [{ permission: { bash: { "*": "allow", "git push": "ask" } } }, { tool: "bash", command: "git push" }, "ask"],
    [
      { permission: { bash: { "*": "allow", "git push": "ask" } } },
      { tool: "bash", command: "git push origin main" },
      "allow",
    ],
    [
      { permission: { bash: { "*": "ask", "git *": "allow", "rm *": "deny" } } },
      { tool: "bash", command: "git commit -m x" },
      "allow",
    ],
    [
      { permission: { bash: { "*": "ask", "git *": "allow", "rm *": "deny" } } },
      { tool: "bash", command: "rm -rf dist" },
      "deny",
    ],
    [
      { permission: { bash: { "*": "ask", "git *": "allow", "rm *": "deny" } } },
      { tool: "bash", command: "git add . && rm -rf dist" },
      "deny",
    ],
    [{ permission: { edit: { "*": "deny", "docs/*.md": "allow" } } }, { tool: "write", path: "docs/a/b.md" }, "allow"],
    [{ permission: { edit: { "*": "deny", "docs/*.md": "allow" } } }, { tool: "write", path: "src/a.ts" }, "deny"],
    [{ permission: { edit: "allow" } }, { tool: "write", path: "src/a.ts" }, "allow"],
    [{ permission: { "*": "ask", bash: "allow" } }, { tool: "bash", command: "make" }, "allow"],
    [{ permission: { "*": "ask", bash: "allow" } }, { tool: "read", path: "README.md" }, "ask"],
    [{ permission: "deny" }, { tool: "write", path: "a.txt" }, "deny"],
    [{ permission: { read: { "*.env": "deny" } } }, { tool: "read", path: "app/.env" }, "deny"],
  ])("%j: %j → %s", async (config, call, expected) => {
    const { ws } = importInto(config);
    expect(await gateDecision(ws, call)).toBe(expected);
  });

  it("gives the same answers as OpenCode's own rules for the same inputs (its engine is last-match-wins over the same wildcards)", () => {
    const block = {
      bash: { "*": "ask", "git *": "allow", "git push *": "deny", "npm run *": "allow" },
      edit: { "*": "ask", "src/*": "allow" },
    } as const;
    const opencode = fromConfig(block);
    const { t } = importInto({ permission: block });
    const plangate = fromConfig(rulesToConfig(t.rules));
    for (const [permission, input] of [
      ["bash", "git status"],
      ["bash", "git push origin"],
      ["bash", "npm run build"],
      ["bash", "make"],
      ["edit", "src/x/y.ts"],
      ["edit", "lib/a.ts"],
    ] as const) {
      expect([permission, input, evaluate(permission, input, plangate)]).toEqual([
        permission,
        input,
        evaluate(permission, input, opencode),
      ]);
    }
  });

  it("translates an agent's own block into agents.<name>", async () => {
    const { ws, t } = importInto({
      agent: {
        review: { mode: "subagent", permission: { edit: "deny", bash: { "*": "ask", "git diff *": "allow" } } },
      },
    });
    expect(t.agents.map((a) => a.name)).toEqual(["review"]);
    expect(await gateDecision(ws, { tool: "bash", command: "git diff HEAD~1" }, { agent: "review" })).toBe("allow");
    expect(await gateDecision(ws, { tool: "write", path: "a.ts" }, { agent: "review" })).toBe("deny");
    expect(await gateDecision(ws, { tool: "write", path: "a.ts" }, { agent: "build" })).toBe("ask");
  });

  it("reports a native agent's allow rules (Plangate only narrows build, plan, general, explore) and keeps its denies", async () => {
    const { ws, t } = importInto({ agent: { build: { permission: { bash: { "*": "allow", "rm *": "deny" } } } } });
    expect(t.untranslated.map((u) => u.rule)).toContain(`agent.build.permission.bash "*": allow`);
    expect(await gateDecision(ws, { tool: "bash", command: "rm -rf x" })).toBe("deny");
  });

  it("lists permissions Plangate does not have", () => {
    const t = translateOpenCodeConfig(
      opencodeConfigSchema.parse({
        permission: {
          webfetch: "allow",
          websearch: "deny",
          skill: { "*": "ask" },
          lsp: "allow",
          todoread: "allow",
          write: "deny",
          mymcp_query: "allow",
          todowrite: "deny",
        },
        tools: { bash: false },
        agent: { "Bad Name": { permission: { bash: "deny" } } },
      }),
      { source: "opencode.json", workspace: "/ws" },
    );
    const reasons = Object.fromEntries(t.untranslated.map((u) => [u.rule.split(":")[0], u.reason]));
    expect(reasons["permission.webfetch"]).toMatch(/no web fetch tool/);
    expect(reasons["permission.websearch"]).toMatch(/web search/);
    expect(reasons["permission.skill"]).toMatch(/skills/);
    expect(reasons["permission.lsp"]).toMatch(/LSP/);
    expect(reasons["permission.write"]).toMatch(/edit covers/);
    expect(reasons["permission.mymcp_query"]).toMatch(/unknown permission/);
    expect(reasons["tools"]).toMatch(/legacy/);
    expect(reasons["agent.Bad Name.permission"]).toMatch(/agent names/);
    expect(t.rules).toEqual([expect.objectContaining({ permission: "todo_write", pattern: "*", action: "deny" })]);
  });

  it("turns an absolute read rule inside the workspace into the workspace-relative path Plangate matches", () => {
    const t = translateOpenCodeConfig(
      { permission: { read: { "/ws/secrets/*": "deny", "*.pem": "deny" } } },
      { source: "opencode.json", workspace: "/ws" },
    );
    expect(t.rules.map((r) => r.pattern)).toEqual(["secrets/*", "*.pem"]);
  });

  it("merges several files as OpenCode does: later files win, keys keep their first place", () => {
    const merged = mergeOpenCodeConfigs([
      { permission: { bash: { "*": "ask", "git *": "allow" }, edit: "ask" } },
      { permission: { bash: { "*": "deny" } } },
    ]);
    expect(merged.permission).toEqual({ bash: { "*": "deny", "git *": "allow" }, edit: "ask" });
  });
});
