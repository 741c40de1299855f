import { homedir } from "node:os";
import { z } from "zod";
import type { Rule, Ruleset } from "./types";

const actionSchema = z.enum(["allow", "deny", "ask"]);

/**
 * `{ bash: "ask", edit: { "*": "deny", "docs/*.md": "allow" } }`. Object
 * entries become rules in insertion order; note that JavaScript puts
 * integer-like keys ("1", "42") first whatever their written order.
 */
export const permissionConfigSchema = z.record(
  z.string().min(1),
  z.union([actionSchema, z.record(z.string(), actionSchema)]),
);

export type PermissionConfig = z.infer<typeof permissionConfigSchema>;

/** Expand a leading `~`, `~/`, `$HOME` or `$HOME/` to the home directory. */
export function expandHome(pattern: string, home: string): string {
  const base = home.replace(/[\\/]+$/, "");
  if (pattern === "~" || pattern === "$HOME") return base;
  if (pattern.startsWith("~/")) return base + pattern.slice(1);
  if (pattern.startsWith("$HOME/")) return base + pattern.slice(5);
  return pattern;
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const EXPECTED = `expected "allow", "deny" or "ask"`;

/** Name the first offending key and value; zod's union errors are vaguer. */
function findProblem(config: unknown): string | undefined {
  if (config === null || typeof config !== "object" || Array.isArray(config)) {
    return `the permission config must be an object, got ${describe(config)}`;
  }
  for (const [key, value] of Object.entries(config)) {
    if (key === "") return `a permission name is empty`;
    if (typeof value === "string") {
      if (!actionSchema.safeParse(value).success) return `permission "${key}": got ${describe(value)}, ${EXPECTED}`;
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return `permission "${key}": got ${describe(value)}, expected an action or an object of pattern → action`;
    }
    for (const [pattern, action] of Object.entries(value)) {
      if (!actionSchema.safeParse(action).success) {
        return `permission "${key}", pattern "${pattern}": got ${describe(action)}, ${EXPECTED}`;
      }
    }
  }
  return undefined;
}

export function fromConfig(config: unknown, opts: { home?: string } = {}): Ruleset {
  const parsed = permissionConfigSchema.safeParse(config);
  if (!parsed.success) {
    const problem = findProblem(config) ?? parsed.error.issues[0]?.message ?? "invalid value";
    throw new Error(`Invalid permission config: ${problem}`);
  }
  const home = opts.home ?? homedir();
  const rules: Rule[] = [];
  for (const [permission, value] of Object.entries(parsed.data)) {
    if (typeof value === "string") {
      rules.push({ permission, pattern: "*", action: value });
      continue;
    }
    for (const [pattern, action] of Object.entries(value)) {
      rules.push({ permission, pattern: expandHome(pattern, home), action });
    }
  }
  return rules;
}
