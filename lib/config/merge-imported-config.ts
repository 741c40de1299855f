import type { z } from "zod";
import { evaluateRule, matchWildcard, type Action, type PermissionConfig, type Rule } from "../permission";
import type { workspaceConfigSchema } from "../workspace/workspace-config";
import { configToRules, describeRule, ruleKey, rulesToConfig, samplesFor, type ImportedRule } from "./imported-rules";

export type WorkspaceConfigData = z.infer<typeof workspaceConfigSchema>;

/** One source's rules in the order its own semantics evaluate them (last match wins). */
export type Layer = { name: string; rules: readonly (Rule | ImportedRule)[] };

export type ImportPlan = {
  /** Workspace-wide layers, in the order they are laid down (each later one wins over the earlier). */
  global: Layer[];
  agents: { name: string; description?: string; mode?: "primary" | "subagent"; layers: Layer[] }[];
};

/** What one side answers, from which file, by which rule (as written there). */
type Verdict = { action: Action; from: string; rule: string };

/** An input for which the merged config answers otherwise than one of its sources on its own. */
export type Conflict = { scope: string; permission: string; input: string; wanted: Verdict; decided: Verdict };

export const EXISTING = "existing .plangate/config.json";

/**
 * Imported rules go before the rules already in the block (last match wins), so an existing rule keeps deciding
 * whatever it matches and the import only decides what the config left to Plangate's defaults. A pattern the
 * block already has keeps its existing action.
 */
export function mergeBlock(
  existing: PermissionConfig | undefined,
  imported: readonly Rule[],
): PermissionConfig | undefined {
  const have = new Set(configToRules(existing).map(ruleKey));
  const fresh = rulesToConfig(imported.filter((r) => !have.has(ruleKey(r))));
  if (existing === undefined) return Object.keys(fresh).length > 0 ? fresh : undefined;
  const out: PermissionConfig = {};
  for (const [permission, value] of Object.entries(fresh))
    if (!Object.hasOwn(existing, permission)) out[permission] = value;
  for (const [permission, value] of Object.entries(existing)) {
    const add = Object.hasOwn(fresh, permission) ? fresh[permission] : undefined;
    if (add === undefined) {
      out[permission] = value;
      continue;
    }
    const before = typeof add === "string" ? { "*": add } : add;
    const own = typeof value === "string" ? { "*": value } : value;
    out[permission] = { ...before, ...own };
  }
  return out;
}

type Origin = { from: string; rule: string };

function originOf(layers: readonly Layer[]): Map<string, Origin> {
  const origin = new Map<string, Origin>();
  for (const layer of layers) for (const r of layer.rules) origin.set(ruleKey(r), sourceOf(r, layer.name));
  return origin;
}

function sourceOf(r: Rule | ImportedRule, layerName: string): Origin {
  return "from" in r ? { from: r.file, rule: r.from } : { from: layerName, rule: describeRule(r) };
}

/**
 * Asks the real evaluator, for inputs the merged rules' patterns certainly match, whether the merged rules
 * answer as each source alone does; every difference is a conflict to report (one per pair of rules).
 */
function findConflicts(
  scope: string,
  layers: readonly Layer[],
  final: readonly Rule[],
  originFor: (r: Rule) => Origin,
): Conflict[] {
  const all = [...final, ...layers.flatMap((l) => l.rules)];
  const literal = [...new Set(all.map((r) => r.permission).filter((p) => !/[*?]/.test(p)))];
  const inputs = new Map<string, Set<string>>(literal.map((p) => [p, new Set<string>()]));
  for (const r of final) {
    for (const p of literal)
      if (p === r.permission || matchWildcard(r.permission, p))
        for (const s of samplesFor(r.pattern)) inputs.get(p)?.add(s);
  }
  const out = new Map<string, Conflict>();
  for (const layer of layers) {
    for (const [permission, samples] of inputs) {
      for (const input of samples) {
        const mine = evaluateRule(permission, input, layer.rules);
        if (mine === undefined) continue;
        const decided = evaluateRule(permission, input, final);
        if (decided?.action === mine.action) continue;
        const by = decided ? originFor(decided) : { from: "Plangate's defaults", rule: "no rule" };
        // Only what the import changes is a conflict: the existing config against itself is not ours to report.
        if (layer.name === EXISTING && by.from.endsWith(EXISTING)) continue;
        const wanted = { action: mine.action, ...sourceOf(mine, layer.name) };
        const key = `${permission}\u0000${wanted.from}\u0000${wanted.rule}\u0000${by.from}\u0000${by.rule}`;
        if (!out.has(key))
          out.set(key, { scope, permission, input, wanted, decided: { action: decided?.action ?? "ask", ...by } });
      }
    }
  }
  return [...out.values()];
}

/** The existing config with the imported rules merged in, and every input on which a source is overruled. */
export function mergeImported(
  existing: WorkspaceConfigData,
  plan: ImportPlan,
): { config: WorkspaceConfigData; conflicts: Conflict[] } {
  const config: WorkspaceConfigData = { ...existing };
  const globalLayers = [...plan.global, { name: EXISTING, rules: configToRules(existing.permission) }];
  const permission = mergeBlock(
    existing.permission,
    plan.global.flatMap((l) => l.rules),
  );
  if (permission !== undefined) config.permission = permission;
  const globalFinal = configToRules(config.permission);
  const globalOrigin = originOf(globalLayers);
  const existingOrigin = (r: Rule): Origin => ({ from: EXISTING, rule: describeRule(r) });
  const conflicts = findConflicts(
    "permission",
    globalLayers,
    globalFinal,
    (r) => globalOrigin.get(ruleKey(r)) ?? existingOrigin(r),
  );

  if (plan.agents.length > 0) {
    const agents = { ...(existing.agents ?? {}) };
    for (const a of plan.agents) {
      const current = Object.hasOwn(agents, a.name) ? agents[a.name] : undefined;
      const merged =
        mergeBlock(
          current?.permission,
          a.layers.flatMap((l) => l.rules),
        ) ?? {};
      agents[a.name] = current
        ? { ...current, permission: merged }
        : {
            ...(a.description !== undefined ? { description: a.description } : {}),
            ...(a.mode !== undefined ? { mode: a.mode } : {}),
            permission: merged,
          };
      // Plangate lays the workspace-wide rules over an agent's own (OpenCode does the reverse): check both together.
      const agentLayers = [...a.layers, { name: EXISTING, rules: configToRules(current?.permission) }];
      const agentFinal = configToRules(merged);
      const own = new Set<Rule>(agentFinal);
      const agentOrigin = originOf(agentLayers);
      const originFor = (r: Rule): Origin => {
        if (own.has(r)) return agentOrigin.get(ruleKey(r)) ?? existingOrigin(r);
        const o = globalOrigin.get(ruleKey(r)) ?? existingOrigin(r);
        return { from: `workspace-wide rules of ${o.from}`, rule: o.rule };
      };
      conflicts.push(...findConflicts(`agents.${a.name}`, agentLayers, [...agentFinal, ...globalFinal], originFor));
    }
    config.agents = agents;
  }
  return { config, conflicts };
}
