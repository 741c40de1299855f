import { z } from "zod";
import { agentNames, matchWildcard, type Action } from "../permission";
import { emptyTranslation, isIntegerKey, type ImportedRule, type Translation } from "./imported-rules";

const action = z.enum(["allow", "ask", "deny"]);
const permissionValue = z.union([action, z.record(z.string(), action)], {
  error: () => `expected "allow", "ask" or "deny", or an object of pattern → "allow" | "ask" | "deny"`,
});
/** OpenCode (V1) `permission`: one action for everything, or per permission an action or pattern → action. */
export const opencodePermissionSchema = z.union([action, z.record(z.string(), permissionValue)], {
  error: () => `expected "allow", "ask" or "deny", or an object of permission → rules`,
});
const agentSchema = z
  .object({
    permission: opencodePermissionSchema.optional(),
    description: z.string().optional(),
    mode: z.string().optional(),
    disable: z.boolean().optional(),
    tools: z.record(z.string(), z.boolean()).optional(),
  })
  .loose();

/** The part of `opencode.json(c)` this reads. */
export const opencodeConfigSchema = z
  .object({
    permission: opencodePermissionSchema.optional(),
    agent: z.record(z.string(), agentSchema).optional(),
    tools: z.record(z.string(), z.boolean()).optional(),
    permissions: z.array(z.unknown()).optional(),
  })
  .loose();

export type OpenCodeConfig = z.infer<typeof opencodeConfigSchema>;
export type OpenCodePermission = z.infer<typeof opencodePermissionSchema>;

/** OpenCode permission → Plangate permission of the same meaning. */
export const OPENCODE_PERMISSIONS: Readonly<Record<string, string>> = {
  read: "read",
  edit: "edit",
  glob: "glob",
  grep: "grep",
  list: "list",
  bash: "bash",
  task: "task",
  todowrite: "todo_write",
  question: "question",
  external_directory: "external_directory",
  doom_loop: "doom_loop",
  plan_enter: "plan_enter",
  plan_exit: "plan_exit",
};

const NO_EQUIVALENT: Readonly<Record<string, string>> = {
  webfetch:
    "Plangate has no web fetch tool; a command's network access is the separate `network` permission, which knows no URLs",
  websearch: "Plangate has no web search tool",
  codesearch: "Plangate has no code search service",
  lsp: "Plangate has no LSP tool",
  skill: "Plangate has no skills",
  todoread: "Plangate has no todoread tool (the todo list is part of the session)",
};
const NOT_A_PERMISSION = new Set(["write", "patch", "multiedit"]);
const KNOWN = [...Object.keys(OPENCODE_PERMISSIONS), ...Object.keys(NO_EQUIVALENT)];
const AGENT_NAME = /^[a-z][a-z0-9_-]{0,40}$/;

/** OpenCode judges read and list by absolute path; Plangate by workspace-relative path inside the workspace. */
function pathPattern(name: string, pattern: string, workspace: string): { pattern: string; note?: string } {
  if (name !== "read" && name !== "list") return { pattern };
  if (pattern.startsWith(`${workspace}/`)) return { pattern: pattern.slice(workspace.length + 1) };
  if (/^(\*|\/|~|\$HOME)/.test(pattern)) return { pattern };
  return {
    pattern,
    note: "OpenCode matches read rules against absolute paths, where this pattern matches nothing; Plangate matches it against the workspace-relative path, so here it takes effect",
  };
}

/** One permission block (the workspace's or an agent's) as ordered Plangate rules. */
export function translatePermissionBlock(
  block: OpenCodePermission,
  at: { source: string; label: string; workspace: string },
): Translation {
  const out = emptyTranslation();
  const entries: [string, Action | Record<string, Action>][] =
    typeof block === "string" ? [["*", block]] : Object.entries(block);
  for (const [key, value] of entries) {
    const rule = `${at.label}${key}: ${JSON.stringify(value)}`;
    const wildcard = key.includes("*") || key.includes("?");
    const names = wildcard ? KNOWN.filter((n) => matchWildcard(key, n)) : [key];
    const mapped = names.filter((n) => OPENCODE_PERMISSIONS[n] !== undefined);
    if (mapped.length === 0) {
      const reason = NOT_A_PERMISSION.has(key)
        ? `OpenCode has no "${key}" permission (edit covers every write) and ignores it`
        : (NO_EQUIVALENT[key] ??
          (wildcard ? "it covers no permission Plangate has" : `unknown permission "${key}" (a custom or MCP tool?)`));
      out.untranslated.push({ source: at.source, rule, reason });
      continue;
    }
    if (wildcard) {
      const targets = mapped.map((n) => OPENCODE_PERMISSIONS[n]).join(", ");
      out.notes.push({
        source: at.source,
        rule,
        note: `"${key}" stands for ${targets} here; Plangate's own network and verify permissions keep their rules`,
      });
    }
    const patterns: [string, Action][] = typeof value === "string" ? [["*", value]] : Object.entries(value);
    for (const name of mapped) {
      for (const [written, act] of patterns) {
        const from = `${at.label}${key} "${written}": ${act}`;
        if (isIntegerKey(written)) {
          out.untranslated.push({
            source: at.source,
            rule: from,
            reason: "a pattern that is a bare number cannot keep its order in a JSON object",
          });
          continue;
        }
        const p = pathPattern(name, written, at.workspace);
        if (p.note !== undefined) out.notes.push({ source: at.source, rule: from, note: p.note });
        const r: ImportedRule = {
          permission: OPENCODE_PERMISSIONS[name]!,
          pattern: p.pattern,
          action: act,
          file: at.source,
          from,
        };
        out.rules.push(r);
      }
    }
  }
  return out;
}

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === "object" && v !== null && !Array.isArray(v);

/** OpenCode merges its config files deeply, later files winning; a key keeps the place it first had. */
export function mergeOpenCodeConfigs(configs: readonly OpenCodeConfig[]): OpenCodeConfig {
  const merge = (a: unknown, b: unknown): unknown => {
    if (!isPlain(a) || !isPlain(b)) return b;
    const out: Plain = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in a ? merge(a[k], v) : v;
    return out;
  };
  return configs.reduce<unknown>((acc, c) => merge(acc, c), {}) as OpenCodeConfig;
}

/** OpenCode's workspace-wide `permission` and each agent's `agent.<name>.permission`. */
export function translateOpenCodeConfig(
  config: OpenCodeConfig,
  at: { source: string; workspace: string },
): Translation {
  const out = emptyTranslation();
  const absorb = (t: Translation) => {
    out.untranslated.push(...t.untranslated);
    out.notes.push(...t.notes);
  };
  if (config.permission !== undefined) {
    const t = translatePermissionBlock(config.permission, {
      source: at.source,
      label: "permission.",
      workspace: at.workspace,
    });
    out.rules.push(...t.rules);
    absorb(t);
  }
  const legacy = "legacy `tools` switches are not imported; write them as permission rules (false is deny)";
  if (config.tools !== undefined) out.untranslated.push({ source: at.source, rule: "tools", reason: legacy });
  if (config.permissions !== undefined) {
    out.untranslated.push({
      source: at.source,
      rule: "permissions",
      reason: "OpenCode V2's `permissions` list is not read; this imports V1's `permission` blocks",
    });
  }
  for (const [name, agent] of Object.entries(config.agent ?? {})) {
    const label = `agent.${name}.`;
    if (agent.tools !== undefined) out.untranslated.push({ source: at.source, rule: `${label}tools`, reason: legacy });
    if (agent.permission === undefined || agent.disable === true) continue;
    if (!AGENT_NAME.test(name)) {
      out.untranslated.push({
        source: at.source,
        rule: `${label}permission`,
        reason: "Plangate agent names are lower-case letters, digits, - and _ (at most 41)",
      });
      continue;
    }
    const t = translatePermissionBlock(agent.permission, {
      source: at.source,
      label: `${label}permission.`,
      workspace: at.workspace,
    });
    absorb(t);
    let rules = t.rules;
    if ((agentNames as readonly string[]).includes(name)) {
      // resolveAgent drops a workspace config's allow rules for the native agents: they may only be narrowed.
      for (const r of rules.filter((x) => x.action === "allow")) {
        out.untranslated.push({
          source: at.source,
          rule: r.from,
          reason: `Plangate only lets a workspace config narrow its native ${name} agent, so its allow rules are ignored`,
        });
      }
      rules = rules.filter((r) => r.action !== "allow");
    }
    if (rules.length === 0) continue;
    const mode = agent.mode === "primary" || agent.mode === "subagent" ? agent.mode : undefined;
    out.agents.push({
      name,
      source: at.source,
      ...(agent.description !== undefined ? { description: agent.description.slice(0, 500) } : {}),
      ...(mode !== undefined ? { mode } : {}),
      rules,
    });
  }
  return out;
}
