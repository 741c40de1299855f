import { describe, expect, it } from "vitest";
import { agentNames, defaultRules, nativeAgents, planFilePatterns, resolveAgent } from "./agents";
import { evaluate } from "./evaluate";
import type { Action } from "./types";

const home = "/home/u";
const user = [
  { permission: "bash", pattern: "rm *", action: "deny" as const },
  { permission: "read", pattern: "*.env", action: "allow" as const },
];
const agents = nativeAgents({ plansDir: ".plangate/plans", home, user });

describe("native agents", () => {
  it.each<[keyof typeof agents, string, string, Action]>([
    ["plan", "edit", "src/a.ts", "deny"],
    ["plan", "edit", ".plangate/plans/x.md", "allow"],
    ["plan", "edit", ".plangate/plans/x.ts", "deny"],
    ["plan", "edit", ".plangate/plans\\win.md", "allow"],
    ["plan", "task", "general", "deny"],
    ["plan", "task", "explore", "allow"],
    ["plan", "plan_exit", "*", "allow"],
    ["plan", "plan_enter", "*", "deny"],
    ["plan", "question", "*", "allow"],
    ["plan", "read", "src/a.ts", "allow"],
    // bash and edit ask by default; decide() lets read-only commands through
    ["plan", "bash", "git status", "ask"],
    ["build", "plan_enter", "*", "allow"],
    ["build", "plan_exit", "*", "deny"],
    ["build", "edit", "src/a.ts", "ask"],
    ["build", "question", "x", "allow"],
    ["build", "doom_loop", "*", "ask"],
    ["build", "external_directory", "/etc/x", "ask"],
    ["build", "read", "config/.env.local", "ask"],
    ["build", "read", ".env.example", "allow"],
    ["general", "todo_write", "*", "deny"],
    ["general", "question", "*", "deny"],
    ["general", "edit", "src/a.ts", "ask"],
    ["explore", "edit", "src/a.ts", "deny"],
    ["explore", "task", "general", "deny"],
    ["explore", "todo_write", "*", "deny"],
    ["explore", "bash", "ls", "ask"],
    // user rules are merged last, so they override the agent's own
    ["build", "bash", "rm -rf x", "deny"],
    ["plan", "read", ".env", "allow"],
    ["explore", "read", "a/.env", "allow"],
  ])("%s: %s %j → %s", (name, permission, pattern, want) => {
    expect(evaluate(permission, pattern, agents[name].permission)).toBe(want);
  });

  it.each<[keyof typeof agents, "primary" | "subagent", boolean]>([
    ["build", "primary", false],
    ["plan", "primary", true],
    ["general", "subagent", false],
    ["explore", "subagent", true],
  ])("%s is %s, readOnly %s, native", (name, mode, readOnly) => {
    expect(agents[name]).toMatchObject({ name, mode, readOnly, native: true });
    expect(agents[name].description.length).toBeGreaterThan(10);
  });

  it("every agent starts from the defaults in order", () => {
    const defaults = defaultRules(home);
    expect(defaults.map((r) => `${r.permission} ${r.pattern} ${r.action}`)).toEqual([
      "* * allow",
      "edit * ask",
      "bash * ask",
      "network * ask",
      "verify * ask",
      "doom_loop * ask",
      "external_directory * ask",
      "question * deny",
      "plan_enter * deny",
      "plan_exit * deny",
      "read * allow",
      "read *.env ask",
      "read *.env.* ask",
      "read *.env.example allow",
    ]);
    for (const name of agentNames) expect(agents[name].permission.slice(0, defaults.length)).toEqual(defaults);
  });

  it.each<[string, { workspace?: string }, string[]]>([
    [".plangate/plans", {}, [".plangate/plans/*.md"]],
    ["./.plangate/plans/", {}, [".plangate/plans/*.md"]],
    [".plangate/plans", { workspace: "/repo" }, [".plangate/plans/*.md", "/repo/.plangate/plans/*.md"]],
    ["/var/plans", { workspace: "/repo" }, ["/var/plans/*.md"]],
    ["C:\\plans", {}, ["C:/plans/*.md"]],
    ["~/plans", {}, ["/home/u/plans/*.md"]],
  ])("plan file patterns for %j", (dir, opts, want) => {
    expect(planFilePatterns(dir, { ...opts, home })).toEqual(want);
  });

  it("an absolute plans folder is writable by the plan agent", () => {
    const plan = nativeAgents({ plansDir: "/data/plans", home }).plan.permission;
    expect(evaluate("edit", "/data/plans/p.md", plan)).toBe("allow");
    expect(evaluate("edit", "/data/other/p.md", plan)).toBe("deny");
  });
});

describe("resolveAgent", () => {
  const custom = {
    reviewer: {
      description: "Reviews diffs",
      permission: { edit: "deny" as const, bash: { "*": "ask" as const, "git diff *": "allow" as const } },
      readOnly: true,
    },
    build: { permission: { webfetch: "deny" as const } },
  };
  const opts = { plansDir: ".plangate/plans", home, user };

  it.each<[string, string, string, Action | undefined]>([
    ["reviewer", "edit", "a.ts", "deny"],
    ["reviewer", "bash", "git diff HEAD", "allow"],
    ["reviewer", "bash", "ls", "ask"],
    ["reviewer", "bash", "rm x", "deny"],
    ["reviewer", "question", "*", "deny"],
    ["build", "webfetch", "https://x", "deny"],
    ["build", "plan_enter", "*", "allow"],
    ["plan", "edit", ".plangate/plans/a.md", "allow"],
    ["nobody", "bash", "ls", undefined],
  ])("%s: %s %j → %s", (name, permission, pattern, want) => {
    const agent = resolveAgent(name, custom, opts);
    if (want === undefined) expect(agent).toBeUndefined();
    else expect(evaluate(permission, pattern, agent!.permission)).toBe(want);
  });

  it("custom agents are not native and keep their flags", () => {
    expect(resolveAgent("reviewer", custom, opts)).toMatchObject({
      native: false,
      readOnly: true,
      description: "Reviews diffs",
      mode: "primary",
    });
    expect(resolveAgent("build", custom, opts)).toMatchObject({ native: true, readOnly: false });
  });
});
