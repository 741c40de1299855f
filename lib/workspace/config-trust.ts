import { agentNames, fromConfig, type Rule, type RuleSource, type Ruleset } from "../permission";
import type { WorkspaceConfig } from "./workspace-config";

/**
 * What a workspace's config would widen if a person trusted it, in words for the trust card and the start log:
 * every allow rule, the network, extra read-only folders, the verify command, webhooks, custom agents. The
 * rest (deny and ask rules, plansDirectory inside the workspace) only narrows and applies without trust.
 */
export function wideningParts(config: WorkspaceConfig): string[] {
  if (config.error !== undefined) return [];
  const out: string[] = [];
  const allows = (permission: Record<string, unknown> | undefined, where: string) => {
    for (const [name, value] of Object.entries(permission ?? {})) {
      if (value === "allow") out.push(`${where}${name} → allow`);
      else if (value !== null && typeof value === "object") {
        for (const [pattern, action] of Object.entries(value))
          if (action === "allow") out.push(`${where}${name} "${pattern}" → allow`);
      }
    }
  };
  allows(config.permission, "");
  for (const [name, agent] of Object.entries(config.agents ?? {})) {
    // A native agent's entry can only narrow it (its allow rules are dropped either way).
    if (!(agentNames as readonly string[]).includes(name))
      out.push(`agent "${name}" (a custom agent with its own rules)`);
  }
  for (const folder of config.sandbox?.read ?? []) out.push(`sandbox.read: commands may read ${folder}`);
  if (config.verify) out.push(`verify.command: ${config.verify.command} (still asked before it runs)`);
  for (const hook of config.webhooks ?? []) out.push(`webhook: ${hook.url}`);
  return out;
}

/** The config as it applies without a person's trust: only what narrows (deny and ask rules, native agents narrowed). */
export function narrowConfig(config: WorkspaceConfig): WorkspaceConfig {
  if (config.error !== undefined) return config;
  const narrowRules = (permission: WorkspaceConfig["permission"]) => {
    const out: NonNullable<WorkspaceConfig["permission"]> = {};
    for (const [name, value] of Object.entries(permission ?? {})) {
      if (typeof value === "string") {
        if (value !== "allow") out[name] = value;
        continue;
      }
      const kept = Object.fromEntries(Object.entries(value).filter(([, action]) => action !== "allow"));
      if (Object.keys(kept).length > 0) out[name] = kept;
    }
    return out;
  };
  const agents = Object.fromEntries(
    Object.entries(config.agents ?? {})
      .filter(([name]) => (agentNames as readonly string[]).includes(name))
      .map(([name, agent]) => [name, { ...agent, permission: narrowRules(agent.permission) }]),
  );
  return {
    ...(config.permission ? { permission: narrowRules(config.permission) } : {}),
    ...(Object.keys(agents).length > 0 ? { agents } : {}),
    ...(config.plansDirectory ? { plansDirectory: config.plansDirectory } : {}),
  };
}

const withSource = (rules: Ruleset, source: RuleSource): Ruleset => rules.map((r): Rule => ({ ...r, source }));

/**
 * The workspace config's rules for one agent, by whom they may answer: `widening` joins the agent's own rules
 * (last, so it overrides them) only when the content is trusted; `narrowing` (deny and ask) binds otherwise,
 * judged beside the agent's rules with the stricter answer winning, so it can never lift a native deny.
 */
export function configRules(
  config: WorkspaceConfig,
  trusted: boolean,
  agent?: string,
  home?: string,
): { widening: Ruleset; narrowing: Ruleset } {
  if (config.error !== undefined) return { widening: [], narrowing: [] };
  const opts = home === undefined ? {} : { home };
  if (trusted) return { widening: withSource(fromConfig(config.permission ?? {}, opts), "config"), narrowing: [] };
  const narrowed = narrowConfig(config);
  const own =
    agent !== undefined && Object.hasOwn(narrowed.agents ?? {}, agent)
      ? (narrowed.agents?.[agent]?.permission ?? {})
      : {};
  const narrowing = [...fromConfig(narrowed.permission ?? {}, opts), ...fromConfig(own, opts)];
  return { widening: [], narrowing: withSource(narrowing, "untrusted-config") };
}
