import { isPlangateHook } from "./hook-command";

/** Settings Claude Code reads, as far as Plangate's hook entries go (everything else is kept as it is). */
type HookEntry = { type?: string; command?: string; timeout?: number };
type Matcher = { matcher?: string; hooks?: HookEntry[] };
export type ClaudeSettings = Record<string, unknown> & { hooks?: Record<string, Matcher[] | unknown> };

/** Tools whose permission asks go to Plangate's permission card with --asks. */
export const ASK_MATCHER = "Bash|Edit|Write|MultiEdit|NotebookEdit";

const isOurs = (h: HookEntry) => isPlangateHook(h.command, "claude-code");

/**
 * Pure: the settings with Plangate's PermissionRequest hook for ExitPlanMode (and the permission asks with
 * `asks`) put in, or taken out with `remove`. Other hooks and keys stay as they were; a second connect
 * replaces the first rather than adding a second hook.
 */
export function withPlangateHook(
  settings: ClaudeSettings,
  opts: { command: string; timeoutSec: number; asks: boolean; remove?: boolean },
): ClaudeSettings {
  const hooks = { ...((settings.hooks as Record<string, unknown> | undefined) ?? {}) };
  const current = Array.isArray(hooks.PermissionRequest) ? (hooks.PermissionRequest as Matcher[]) : [];
  const kept = current
    .map((m) => ({ ...m, hooks: (m.hooks ?? []).filter((h) => !isOurs(h)) }))
    .filter((m) => (m.hooks ?? []).length > 0);
  const ours: Matcher[] = opts.remove
    ? []
    : [
        { matcher: "ExitPlanMode", hooks: [{ type: "command", command: opts.command, timeout: opts.timeoutSec }] },
        ...(opts.asks
          ? [{ matcher: ASK_MATCHER, hooks: [{ type: "command", command: opts.command, timeout: opts.timeoutSec }] }]
          : []),
      ];
  const next = [...kept, ...ours];
  if (next.length > 0) hooks.PermissionRequest = next;
  else delete hooks.PermissionRequest;
  const out: ClaudeSettings = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete out.hooks;
  return out;
}

/** Plangate's hook for ExitPlanMode in the settings, if there is one. Pure. */
export function plangatePlanHook(settings: ClaudeSettings): HookEntry | undefined {
  const groups = settings.hooks?.PermissionRequest;
  if (!Array.isArray(groups)) return undefined;
  return (groups as Matcher[])
    .filter((m) => m.matcher === "ExitPlanMode")
    .flatMap((m) => m.hooks ?? [])
    .find(isOurs);
}
