import { EDIT_TOOLS, type Ruleset } from "./types";
import { matchWildcard } from "./wildcard";

/** edit, write and apply_patch are all gated by the one "edit" permission. */
export function permissionForTool(tool: string): string {
  return (EDIT_TOOLS as readonly string[]).includes(tool) ? "edit" : tool;
}

/**
 * Tools to hide from the model entirely. Only a blanket deny that is the last
 * word for the permission hides a tool: a later path-level allow (the plan
 * agent's plan folder) means the tool is still useful, and a later narrower
 * deny leaves other patterns open.
 */
export function disabled(tools: readonly string[], ruleset: Ruleset): Set<string> {
  const out = new Set<string>();
  for (const tool of tools) {
    const permission = permissionForTool(tool);
    let last: Ruleset[number] | undefined;
    for (let i = ruleset.length - 1; i >= 0; i--) {
      const rule = ruleset[i];
      if (rule !== undefined && matchWildcard(rule.permission, permission)) {
        last = rule;
        break;
      }
    }
    if (last !== undefined && last.pattern === "*" && last.action === "deny") out.add(tool);
  }
  return out;
}
