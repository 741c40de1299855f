import { z } from "zod";
import type { Action } from "../permission";
import { emptyTranslation, isIntegerKey, type ImportedRule, type Translation } from "./imported-rules";
import { translateClaudePath, type PathContext } from "./translate-claude-path";

const ruleList = z.array(z.string());

/** The part of a Claude Code settings file this reads; everything else (hooks, env, model…) is left alone. */
export const claudeSettingsSchema = z
  .object({
    permissions: z
      .object({
        allow: ruleList.optional(),
        ask: ruleList.optional(),
        deny: ruleList.optional(),
        defaultMode: z.string().optional(),
        additionalDirectories: z.array(z.string()).optional(),
        disableBypassPermissionsMode: z.string().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

export type ClaudeSettings = z.infer<typeof claudeSettingsSchema>;

export type ClaudeSource = {
  /** The file as shown to the person (".claude/settings.json", "~/.claude/settings.json"). */
  display: string;
  /** The folder holding its `.claude/`: where a rule starting with one "/" is rooted. */
  settingsRoot: string;
  settings: ClaudeSettings;
};

export type ClaudeContext = { workspace: string; home: string };

const EDIT_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
/** Claude Code's built-in subagents by the name of Plangate's matching native agent. */
const SUBAGENTS: Record<string, string> = {
  explore: "explore",
  plan: "plan",
  "general-purpose": "general",
  general: "general",
};

const NO_EQUIVALENT: Record<string, string> = {
  WebFetch:
    "Plangate has no web fetch tool; a command's network access is the separate `network` permission, which knows no domains",
  WebSearch: "Plangate has no web search tool",
  ExitPlanMode: "Plangate's plan mode has its own rules (plan_enter and plan_exit per agent)",
  EnterPlanMode: "Plangate's plan mode has its own rules (plan_enter and plan_exit per agent)",
  Skill: "Plangate has no skills",
  SlashCommand: "Plangate has no slash-command tool",
};

type Emit = { permission: string; patterns: string[] };
type Outcome = { emit: Emit[]; broader?: string; note?: string } | { skip: string };

/** `Bash(npm test:*)` is the legacy prefix form of `Bash(npm test *)`: "npm test", or it followed by a space and anything. */
export function translateBashSpec(spec: string): { pattern: string; broader: boolean } {
  let pattern = spec.trim();
  if (pattern.endsWith(":*")) pattern = `${pattern.slice(0, -2).trimEnd()} *`.trimStart();
  if (pattern === "" || pattern === "*" || pattern === " *") return { pattern: "*", broader: false };
  // Claude Code reads "?" literally; Plangate's "?" is any one character.
  return { pattern, broader: pattern.includes("?") };
}

function translateOne(tool: string, written: string | undefined, ctx: PathContext): Outcome {
  const spec = written ?? "";
  const bare = spec.trim() === "" || spec.trim() === "*";
  if (tool.startsWith("mcp__")) return { skip: "MCP tools: Plangate does not run MCP servers" };
  const none = NO_EQUIVALENT[tool];
  if (none !== undefined) return { skip: none };
  if (tool === "Bash") {
    if (bare) return { emit: [{ permission: "bash", patterns: ["*"] }] };
    const { pattern, broader } = translateBashSpec(spec);
    return {
      emit: [{ permission: "bash", patterns: [pattern] }],
      ...(broader ? { broader: `"?" is a wildcard in Plangate, a plain character in Claude Code` } : {}),
    };
  }
  if (tool === "Read" || EDIT_TOOLS.has(tool) || tool === "LS") {
    // Claude Code applies Read rules to its folder listings too; Plangate's list tool is judged by path as well.
    const permissions = tool === "Read" ? ["read", "list"] : tool === "LS" ? ["list"] : ["edit"];
    if (bare) return { emit: permissions.map((permission) => ({ permission, patterns: ["*"] })) };
    const t = translateClaudePath(spec, ctx);
    if (!t.ok) return { skip: t.reason };
    const result: Outcome = { emit: permissions.map((permission) => ({ permission, patterns: t.patterns })) };
    if (t.broader)
      result.broader = `Plangate's "*" also crosses folders ("/"), so it matches ${t.patterns.join(", ")} at any depth`;
    if (t.outside)
      result.note =
        "outside the workspace Plangate also asks before each folder (external_directory), whatever this rule says";
    return result;
  }
  if (tool === "Glob" || tool === "Grep") {
    if (bare) return { emit: [{ permission: tool.toLowerCase(), patterns: ["*"] }] };
    return {
      skip: `Claude Code gives ${tool} no path rules (Read rules cover it); Plangate's ${tool.toLowerCase()} rules match the search pattern`,
    };
  }
  if (tool === "TodoWrite") return { emit: [{ permission: "todo_write", patterns: ["*"] }] };
  if (tool === "Task" || tool === "Agent") {
    if (bare) return { emit: [{ permission: "task", patterns: ["*"] }] };
    const agent = SUBAGENTS[spec.trim().toLowerCase()];
    if (agent === undefined)
      return { skip: `Plangate has no subagent matching Claude Code's "${spec.trim()}" (it has general and explore)` };
    return { emit: [{ permission: "task", patterns: [agent] }] };
  }
  return { skip: `unknown tool "${tool}"` };
}

/** "Tool" or "Tool(specifier)". */
export function parseClaudeRule(text: string): { tool: string; spec?: string } | null {
  const m = /^\s*([A-Za-z][\w-]*)\s*(?:\(([\s\S]*)\))?\s*$/.exec(text);
  if (!m) return null;
  return m[2] === undefined ? { tool: m[1]! } : { tool: m[1]!, spec: m[2] };
}

/**
 * Claude Code merges the rule lists of every settings file and decides deny > ask > allow whatever the order.
 * Plangate's last matching rule wins, so the rules are emitted allow first, then ask, then deny.
 */
export function translateClaudeSettings(sources: readonly ClaudeSource[], ctx: ClaudeContext): Translation {
  const out = emptyTranslation();
  for (const action of ["allow", "ask", "deny"] as const satisfies readonly Action[]) {
    for (const source of sources) {
      for (const text of source.settings.permissions?.[action] ?? []) {
        const rule = `${action}: ${text}`;
        const parsed = parseClaudeRule(text);
        if (!parsed) {
          out.untranslated.push({
            source: source.display,
            rule,
            reason: "not a rule of the form Tool or Tool(specifier)",
          });
          continue;
        }
        const outcome = translateOne(parsed.tool, parsed.spec, {
          workspace: ctx.workspace,
          home: ctx.home,
          settingsRoot: source.settingsRoot,
        });
        if ("skip" in outcome) {
          out.untranslated.push({ source: source.display, rule, reason: outcome.skip });
          continue;
        }
        // Matching more than Claude Code did is the safe side for deny and ask, never for allow.
        if (outcome.broader !== undefined && action === "allow") {
          out.untranslated.push({
            source: source.display,
            rule,
            reason: `it would allow more in Plangate: ${outcome.broader}`,
          });
          continue;
        }
        if (outcome.broader !== undefined)
          out.notes.push({ source: source.display, rule, note: `matches more in Plangate: ${outcome.broader}` });
        if (outcome.note !== undefined && action === "allow")
          out.notes.push({ source: source.display, rule, note: outcome.note });
        for (const e of outcome.emit) {
          for (const pattern of e.patterns) {
            if (isIntegerKey(pattern)) {
              out.untranslated.push({
                source: source.display,
                rule,
                reason: "a pattern that is a bare number cannot keep its order in a JSON object",
              });
              continue;
            }
            const r: ImportedRule = { permission: e.permission, pattern, action, file: source.display, from: rule };
            out.rules.push(r);
          }
        }
      }
    }
  }
  for (const source of sources) {
    const p = source.settings.permissions;
    if (p?.defaultMode !== undefined) {
      out.untranslated.push({
        source: source.display,
        rule: `defaultMode: ${p.defaultMode}`,
        reason: "Plangate's permission mode belongs to each session (the mode menu), not to the workspace config",
      });
    }
    for (const dir of p?.additionalDirectories ?? []) {
      out.untranslated.push({
        source: source.display,
        rule: `additionalDirectories: ${dir}`,
        reason: `Plangate asks before each folder outside the workspace; to allow it, add "external_directory": {"${dir.replace(/\/+$/, "")}/*": "allow"} by hand`,
      });
    }
    if (p?.disableBypassPermissionsMode !== undefined) {
      out.untranslated.push({
        source: source.display,
        rule: "disableBypassPermissionsMode",
        reason: "in Plangate bypass is off unless the server sets PLANGATE_ENABLE_BYPASS",
      });
    }
  }
  return out;
}
