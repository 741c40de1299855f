import type { Ruleset } from "./types";

const hasWildcard = (pattern: string) => pattern.includes("*") || pattern.includes("?");
const views = new WeakMap<Ruleset, Ruleset>();

/**
 * The ruleset as it applies to a command with redirections, substitutions or expansions: a wildcard allow
 * ("ls *") cannot answer for it, only an exact rule or the blanket "*" can. Denies and asks still apply.
 */
export function literalView(rules: Ruleset): Ruleset {
  let view = views.get(rules);
  if (view === undefined) {
    view = rules.filter(
      (r) => r.action !== "allow" || r.exact === true || r.pattern === "*" || !hasWildcard(r.pattern),
    );
    views.set(rules, view);
  }
  return view;
}
