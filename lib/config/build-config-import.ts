import { fromConfig } from "../permission";
import { workspaceConfigSchema } from "../workspace/workspace-config";
import { translateClaudeSettings } from "./import-claude-settings";
import { translateOpenCodeConfig } from "./import-opencode-config";
import { emptyTranslation, type ImportNote, type Untranslated } from "./imported-rules";
import {
  mergeImported,
  type Conflict,
  type ImportPlan,
  type Layer,
  type WorkspaceConfigData,
} from "./merge-imported-config";
import type { ImportSources } from "./read-import-sources";

export type ConfigImport = {
  /** The files that were read. */
  sources: string[];
  /** `.plangate/config.json` after the import. */
  config: WorkspaceConfigData;
  changed: boolean;
  /** Source rules translated (one can give several Plangate rules). */
  translated: number;
  conflicts: Conflict[];
  untranslated: Untranslated[];
  notes: ImportNote[];
};

/**
 * Translates what was read and merges it into the existing config: OpenCode's rules first (in their own order),
 * then Claude Code's (allow, ask, deny), then the existing config's, each later one winning where they overlap.
 */
export function buildConfigImport(
  read: ImportSources,
  existing: WorkspaceConfigData,
  ctx: { workspace: string; home: string },
): ConfigImport {
  const claude = translateClaudeSettings(read.claude, ctx);
  const opencode = read.opencode
    ? translateOpenCodeConfig(read.opencode.config, { source: read.opencode.display, workspace: ctx.workspace })
    : emptyTranslation();
  const global: Layer[] = [];
  if (opencode.rules.length > 0 && read.opencode) global.push({ name: read.opencode.display, rules: opencode.rules });
  if (claude.rules.length > 0)
    global.push({ name: read.claude.map((c) => c.display).join(" + "), rules: claude.rules });
  const plan: ImportPlan = {
    global,
    agents: opencode.agents.map((a) => ({
      name: a.name,
      ...(a.description !== undefined ? { description: a.description } : {}),
      ...(a.mode !== undefined ? { mode: a.mode } : {}),
      layers: [{ name: a.source, rules: a.rules }],
    })),
  };
  const { config, conflicts } = mergeImported(existing, plan);

  // What is written must be what Plangate's own loader accepts, block by block.
  const checked = workspaceConfigSchema.safeParse(config);
  if (!checked.success)
    throw new Error(
      `the merged config is not valid: ${checked.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  if (config.permission) fromConfig(config.permission);
  for (const agent of Object.values(config.agents ?? {})) fromConfig(agent.permission);

  return {
    sources: [...read.claude.map((c) => c.display), ...(read.opencode ? read.opencode.display.split(" + ") : [])],
    config,
    changed: JSON.stringify(config) !== JSON.stringify(existing),
    translated: new Set(
      [...claude.rules, ...opencode.rules, ...opencode.agents.flatMap((a) => a.rules)].map(
        (r) => `${r.file}\u0000${r.from}`,
      ),
    ).size,
    conflicts,
    untranslated: [...read.unread, ...claude.untranslated, ...opencode.untranslated],
    notes: [...claude.notes, ...opencode.notes],
  };
}
