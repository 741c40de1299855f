import { homedir } from "node:os";
import { expandHome, fromConfig, type PermissionConfig } from "./config";
import { merge } from "./evaluate";
import type { Rule, Ruleset } from "./types";

export type AgentMode = "primary" | "subagent";

export type AgentDef = {
  name: string;
  description: string;
  mode: AgentMode;
  /** True for the four built-in agents, false for agents from user config. */
  native: boolean;
  /** The agent cannot change the workspace (drives sandboxing and plan-style UI). */
  readOnly: boolean;
  permission: Ruleset;
};

export const agentNames = ["build", "plan", "general", "explore"] as const;
export type NativeAgentName = (typeof agentNames)[number];

/** The base every agent starts from; everything later in a ruleset overrides it. */
export function defaultRules(home?: string): Ruleset {
  return fromConfig(
    {
      "*": "allow",
      // Default mode asks before changing anything (acceptEdits and auto answer these asks); read-only
      // commands are let through by decide().
      edit: "ask",
      bash: "ask",
      // A command's network access is a question of its own (the sandbox has none otherwise).
      network: "ask",
      // The workspace's verify command (.plangate/config.json) runs only once a person allowed it.
      verify: "ask",
      doom_loop: "ask",
      external_directory: { "*": "ask" },
      question: "deny",
      plan_enter: "deny",
      plan_exit: "deny",
      read: { "*": "allow", "*.env": "ask", "*.env.*": "ask", "*.env.example": "allow" },
    },
    home === undefined ? {} : { home },
  );
}

const isAbsolute = (p: string): boolean => p.startsWith("/") || /^[A-Za-z]:\//.test(p);

/**
 * Edit patterns under which the plan agent may write. Paths reach the engine
 * workspace-relative for files inside the workspace and absolute otherwise,
 * so a relative plans folder also gets its absolute form when the workspace
 * is known.
 */
export function planFilePatterns(plansDir: string, opts: { workspace?: string; home?: string } = {}): string[] {
  const clean = (p: string) =>
    expandHome(p, opts.home ?? homedir())
      .replace(/\\/g, "/")
      .replace(/^(\.\/)+/, "")
      .replace(/\/+$/, "");
  const dir = clean(plansDir);
  const out = [`${dir}/*.md`];
  if (!isAbsolute(dir) && opts.workspace !== undefined) out.push(`${clean(opts.workspace)}/${dir}/*.md`);
  return out;
}

const rule = (permission: string, pattern: string, action: Rule["action"]): Rule => ({ permission, pattern, action });

export type NativeAgentOptions = {
  /** Folder of plan files, workspace-relative (".plangate/plans") or absolute. */
  plansDir: string;
  /** User rules, merged last into every agent so they can override anything. */
  user?: Ruleset;
  workspace?: string;
  home?: string;
};

export function nativeAgents(opts: NativeAgentOptions): Record<NativeAgentName, AgentDef> {
  const base = defaultRules(opts.home);
  const user = opts.user ?? [];
  const planEdits = planFilePatterns(opts.plansDir, opts).map((p) => rule("edit", p, "allow"));
  const agent = (
    name: NativeAgentName,
    description: string,
    mode: AgentMode,
    readOnly: boolean,
    own: Rule[],
  ): AgentDef => ({ name, description, mode, native: true, readOnly, permission: merge(base, own, user) });

  return {
    build: agent("build", "Default agent: reads, edits and runs commands to carry out the task.", "primary", false, [
      rule("plan_enter", "*", "allow"),
      rule("question", "*", "allow"),
    ]),
    plan: agent("plan", "Planning agent: explores the code read-only and writes only its plan file.", "primary", true, [
      rule("question", "*", "allow"),
      rule("plan_exit", "*", "allow"),
      rule("task", "general", "deny"),
      rule("network", "*", "deny"),
      rule("edit", "*", "deny"),
      ...planEdits,
    ]),
    general: agent(
      "general",
      "General-purpose subagent for multi-step research and changes delegated by a primary agent.",
      "subagent",
      false,
      // The todo list belongs to the primary agent's session.
      [rule("todo_write", "*", "deny")],
    ),
    explore: agent(
      "explore",
      "Fast read-only subagent for searching and reading the codebase.",
      "subagent",
      true,
      // bash stays allowed here: the OS sandbox is what makes it read-only.
      [
        rule("edit", "*", "deny"),
        rule("network", "*", "deny"),
        rule("task", "*", "deny"),
        rule("todo_write", "*", "deny"),
      ],
    ),
  };
}

export type CustomAgentConfig = {
  description?: string;
  permission: PermissionConfig;
  readOnly?: boolean;
  mode?: AgentMode;
};

/**
 * A native agent, or a user-defined one built as defaults + its own rules +
 * user rules. A custom entry that reuses a native name can only narrow it:
 * its deny and ask rules are layered on, its allow rules are dropped, and
 * it can make the agent read-only but never lift that (the gate and `task`
 * trust these names, and a workspace config is not trusted).
 */
export function resolveAgent(
  name: string,
  custom: Record<string, CustomAgentConfig>,
  opts: NativeAgentOptions = { plansDir: ".plangate/plans" },
): AgentDef | undefined {
  const entry = Object.hasOwn(custom, name) ? custom[name] : undefined;
  const own = entry ? fromConfig(entry.permission, opts.home === undefined ? {} : { home: opts.home }) : [];
  const user = opts.user ?? [];
  if ((agentNames as readonly string[]).includes(name)) {
    const narrowing = own.filter((r) => r.action !== "allow");
    const native = nativeAgents({ ...opts, user: merge(narrowing, user) })[name as NativeAgentName];
    return entry
      ? {
          ...native,
          description: entry.description ?? native.description,
          readOnly: native.readOnly || entry.readOnly === true,
        }
      : native;
  }
  if (!entry) return undefined;
  return {
    name,
    description: entry.description ?? `Custom agent ${name}`,
    mode: entry.mode ?? "primary",
    native: false,
    readOnly: entry.readOnly ?? false,
    permission: merge(defaultRules(opts.home), own, user),
  };
}
