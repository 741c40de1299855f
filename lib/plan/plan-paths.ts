import fs from "node:fs";
import path from "node:path";
import { randomInt } from "node:crypto";
import { isControlPath } from "../workspace/control-paths";

export const DEFAULT_PLANS_DIR = ".plangate/plans";

const WORDS = [
  "amber",
  "brisk",
  "cedar",
  "delta",
  "ember",
  "fjord",
  "grove",
  "harbor",
  "iris",
  "juniper",
  "kite",
  "lumen",
  "maple",
  "nova",
  "orbit",
  "pine",
  "quartz",
  "river",
  "sage",
  "tidal",
  "umber",
  "vale",
  "willow",
  "zephyr",
];

function inside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The deepest existing ancestor, realpath'd, plus the rest: so a symlink anywhere on the way is seen. */
function realish(target: string): string {
  let dir = target;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(dir), ...rest.reverse());
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return target;
      rest.push(path.basename(dir));
      dir = parent;
    }
  }
}

/**
 * Where a workspace keeps its plans: `plansDirectory` from its config, resolved inside the workspace. A value
 * (or a symlink on its path) that leads outside is refused and the default kept, with a warning to log.
 */
export function resolvePlansDir(
  workspace: string,
  configured: string | undefined,
): { relative: string; absolute: string; warning?: string; unusable?: string } {
  const root = realish(workspace);
  const defaultReal = realish(path.join(root, DEFAULT_PLANS_DIR));
  // Even the default may be a symlink planted to lead out: then there is no safe folder, and no plan file.
  const fallback = inside(root, defaultReal)
    ? { relative: DEFAULT_PLANS_DIR, absolute: path.join(root, DEFAULT_PLANS_DIR) }
    : {
        relative: DEFAULT_PLANS_DIR,
        absolute: path.join(root, DEFAULT_PLANS_DIR),
        unusable: `${DEFAULT_PLANS_DIR} leads outside the workspace (${defaultReal}): no plan file can be written until it is removed`,
      };
  if (!configured) return fallback;
  const absolute = realish(path.resolve(root, configured));
  if (!inside(root, absolute) || absolute === root) {
    return {
      ...fallback,
      warning: `plansDirectory "${configured}" resolves outside the workspace (${absolute}); using ${DEFAULT_PLANS_DIR}`,
    };
  }
  const relative = path.relative(root, absolute).split(path.sep).join("/");
  // Plan files are written without asking in plan mode: never into another tool's settings (.claude/commands, .git/hooks…).
  if (isControlPath(relative) && relative !== ".plangate" && !relative.startsWith(".plangate/")) {
    return {
      ...fallback,
      warning: `plansDirectory "${configured}" is inside a control folder (${relative}); using ${DEFAULT_PLANS_DIR}`,
    };
  }
  return { relative, absolute };
}

const SUFFIX = "abcdefghijkmnpqrstuvwxyz23456789";

/**
 * A readable slug that nobody can guess in advance: words of the first prompt, two random words, and eight
 * random characters (about 49 bits in all), so a cloned repository cannot plant links at every plan path.
 */
export function planSlug(firstPrompt: string | null, random: (n: number) => number = randomInt): string {
  const words =
    (firstPrompt ?? "")
      .toLowerCase()
      .match(/[a-z0-9]+/g)
      ?.filter((w) => w.length > 2)
      .slice(0, 4) ?? [];
  const first = random(WORDS.length);
  const extra = [WORDS[first], WORDS[(first + 1 + random(WORDS.length - 1)) % WORDS.length]];
  const suffix = Array.from({ length: 8 }, () => SUFFIX[random(SUFFIX.length)]).join("");
  return [words.join("-").slice(0, 50), ...extra, suffix].filter(Boolean).join("-");
}

export function planFilePath(plansDir: string, slug: string, agentId?: string): string {
  return path.join(plansDir, `${slug}${agentId ? `-agent-${agentId}` : ""}.md`);
}
