import type { Db } from "../db/client";
import { findSessionSetup, type SessionSetupRow } from "../db/sessions";
import { AppError } from "../errors";
import { fromConfig, merge, resolveAgent, type AgentDef, type Ruleset } from "../permission";
import { configRules } from "../workspace/config-trust";
import { workspaceConfigFor, type EffectiveConfig } from "../workspace/effective-config";
import { plansDirFor } from "../plan/ensure-plan";
import { scriptSchema, type ScriptStep } from "../model/scripted-model";

export type SessionContext = {
  id: string;
  workspace: string;
  agent: AgentDef;
  model: string;
  script: ScriptStep[];
  parentId: string | null;
  /** The agent's rules plus, for a subagent, the parent's denies and the subagent limits. */
  rules: Ruleset;
  /** The deny and ask rules of a workspace config nobody trusted (yet): judged beside `rules`, the stricter wins. */
  narrowing: Ruleset;
  /** What decides the model's tool list: `rules` with the narrowing denies (a tool denied outright is not offered). */
  toolRules: Ruleset;
  /** The workspace's config as it applies now (its widening parts only once a person trusted its content). */
  config: EffectiveConfig;
  /** A subagent's parent, grandparent…: a child may never do more than any of them may do now. */
  ancestors: { id: string; rules: Ruleset }[];
};

type AgentRules = { def: AgentDef; narrowing: Ruleset };
const agentCache = new Map<string, { config: EffectiveConfig; agents: Map<string, AgentRules> }>();

/**
 * An agent of a workspace: native (build, plan, general, explore) or defined in its .plangate/config.json, with
 * the workspace's own rules merged last, once a person trusted that content; before, the config only narrows
 * (its deny and ask rules come back as `narrowing`) and defines no agent. Built once per config version:
 * rulesets are compiled and cached by identity.
 */
export function agentDef(name: string, workspace: string, config: EffectiveConfig): AgentRules {
  let entry = agentCache.get(workspace);
  if (!entry || entry.config !== config) {
    if (agentCache.size > 200) agentCache.clear();
    entry = { config, agents: new Map() };
    agentCache.set(workspace, entry);
  }
  let found = entry.agents.get(name);
  if (!found) {
    const { widening, narrowing } = configRules(config.raw, config.trusted, name);
    const custom = config.trusted ? (config.raw.agents ?? {}) : {};
    const def = resolveAgent(name, custom, { plansDir: plansDirFor(workspace).relative, workspace, user: widening });
    if (!def) {
      const waiting = !config.trusted && Object.hasOwn(config.raw.agents ?? {}, name);
      throw new AppError(
        "bad_request",
        waiting
          ? `agent: "${name}" is defined in ${workspace}/.plangate/config.json, which no person has trusted yet (trust it on the workspace page)`
          : `agent: unknown agent "${name}" (build, plan, general, explore or one from ${workspace}/.plangate/config.json)`,
      );
    }
    found = { def, narrowing };
    entry.agents.set(name, found);
  }
  return found;
}

// Subagents cannot start subagents, enter plan mode or open reviews (questions or plans).
const SUBAGENT_LIMITS = fromConfig({ task: "deny", question: "deny", plan_enter: "deny", plan_exit: "deny" });

const denies = (rules: Ruleset): Ruleset => rules.filter((r) => r.action === "deny");

async function loadRow(db: Db, id: string): Promise<SessionSetupRow> {
  const row = await findSessionSetup(db, id);
  if (!row) throw new AppError("session_not_found");
  return row;
}

// What a session was created with never changes; only the rules follow its workspace config and its trust.
const contexts = new Map<string, { config: EffectiveConfig; context: SessionContext }>();

export async function loadSessionContext(db: Db, id: string): Promise<SessionContext> {
  const hit = contexts.get(id);
  if (hit && (await workspaceConfigFor(db, hit.context.workspace)) === hit.config) return hit.context;
  const context = await buildContext(db, id);
  // Bounded: a context falls out oldest first and is rebuilt from its row when the session runs again.
  if (contexts.size > 1000) contexts.delete(contexts.keys().next().value as string);
  contexts.set(id, { config: context.config, context });
  return context;
}

async function buildContext(db: Db, id: string): Promise<SessionContext> {
  const row = await loadRow(db, id);
  const config = await workspaceConfigFor(db, row.workspace);
  const { def: agent, narrowing } = agentDef(row.agent, row.workspace, config);
  const created = row.created ? (JSON.parse(row.created) as { script?: unknown }) : {};
  const script = scriptSchema.safeParse(created.script ?? []);
  let rules = agent.permission;
  const ancestors: SessionContext["ancestors"] = [];
  // A child inherits every deny of its ancestors (a parent's deny cannot be escaped by delegating); the gate
  // also judges each call by each ancestor's rules and current mode (judgeCall), so the child gets the
  // intersection of their rights and its own.
  for (let parentId = row.parentId, depth = 0; parentId && depth < 5; depth++) {
    const parent = await loadRow(db, parentId);
    const parentRules = agentDef(parent.agent, parent.workspace, await workspaceConfigFor(db, parent.workspace)).def
      .permission;
    rules = merge(rules, denies(parentRules));
    ancestors.push({ id: parent.id, rules: parentRules });
    parentId = parent.parentId;
  }
  if (row.parentId) rules = merge(rules, SUBAGENT_LIMITS);
  const toolRules = narrowing.length > 0 ? merge(rules, denies(narrowing)) : rules;
  return {
    id: row.id,
    workspace: row.workspace,
    agent,
    model: row.model,
    script: script.success ? script.data : [],
    parentId: row.parentId,
    rules,
    narrowing,
    toolRules,
    config,
    ancestors,
  };
}
