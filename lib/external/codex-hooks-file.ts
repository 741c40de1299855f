import { createHash } from "node:crypto";
import { isPlangateHook } from "./hook-command";

/**
 * Codex's user hooks file ($CODEX_HOME/hooks.json) and the key and hash of the trust Codex records for each hook
 * in config.toml (written by codex-config-toml.ts): Codex 0.171 silently skips a hook whose recorded hash is missing
 * or stale. Pure.
 */
type Handler = { type?: string; command?: string; timeout?: number; async?: boolean; statusMessage?: string };
type Group = { matcher?: string; hooks?: Handler[] };
export type CodexHooksFile = Record<string, unknown> & { hooks?: Record<string, unknown> };

const EVENT_KEYS: Record<string, string> = {
  PreToolUse: "pre_tool_use",
  PermissionRequest: "permission_request",
  PostToolUse: "post_tool_use",
  PreCompact: "pre_compact",
  PostCompact: "post_compact",
  SessionStart: "session_start",
  UserPromptSubmit: "user_prompt_submit",
  Stop: "stop",
};
// Only these events' matchers are part of a hook's identity.
const MATCHED = new Set(["PreToolUse", "PermissionRequest", "PostToolUse", "SessionStart"]);
/** Codex's shell tool as its hooks name it. */
export const CODEX_ASK_MATCHER = "Bash";

const groupsOf = (file: CodexHooksFile, event: string): Group[] => {
  const g = file.hooks?.[event];
  return Array.isArray(g) ? (g as Group[]) : [];
};

/**
 * The file with Plangate's Stop hook (and with `asks` its PermissionRequest hook for the shell) put in, or taken
 * out with `remove`; other hooks stay where they were (ours go last, so theirs keep their places and their trust).
 */
export function withCodexHooks(
  file: CodexHooksFile,
  o: { command: string; timeoutSec: number; asks: boolean; remove?: boolean },
): CodexHooksFile {
  const hooks: Record<string, unknown> = { ...(file.hooks ?? {}) };
  const mine = (): Handler => ({ type: "command", command: o.command, timeout: o.timeoutSec });
  for (const event of ["Stop", "PermissionRequest"]) {
    const kept = groupsOf(file, event)
      .map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !isPlangateHook(h.command, "codex")) }))
      .filter((g) => g.hooks.length > 0);
    const ours: Group[] =
      o.remove || (event === "PermissionRequest" && !o.asks)
        ? []
        : [event === "Stop" ? { hooks: [mine()] } : { matcher: CODEX_ASK_MATCHER, hooks: [mine()] }];
    const next = [...kept, ...ours];
    if (next.length > 0) hooks[event] = next;
    else delete hooks[event];
  }
  return { ...file, hooks };
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/** Codex's hash of one hook: sha256 of its identity (event, handler with defaults, matcher) as sorted compact JSON. */
export function codexHookHash(event: string, group: Group, handler: Handler): string {
  const h: Record<string, unknown> = {
    type: "command",
    command: handler.command,
    timeout: Math.max(1, handler.timeout ?? 600),
    async: handler.async === true,
  };
  if (handler.statusMessage !== undefined) h.statusMessage = handler.statusMessage;
  const identity: Record<string, unknown> = { event_name: EVENT_KEYS[event], hooks: [h] };
  if (MATCHED.has(event) && group.matcher !== undefined) identity.matcher = group.matcher;
  return `sha256:${createHash("sha256")
    .update(JSON.stringify(sorted(identity)), "utf8")
    .digest("hex")}`;
}

/** Plangate's hooks in the file, each with its config.toml key and hash (`hooksPath` as Codex resolves it). */
export function plangateHookStates(file: CodexHooksFile, hooksPath: string): { key: string; hash: string }[] {
  const out: { key: string; hash: string }[] = [];
  for (const event of Object.keys(EVENT_KEYS))
    groupsOf(file, event).forEach((g, gi) =>
      (g.hooks ?? []).forEach((h, hi) => {
        if (isPlangateHook(h.command, "codex"))
          out.push({ key: `${hooksPath}:${EVENT_KEYS[event]}:${gi}:${hi}`, hash: codexHookHash(event, g, h) });
      }),
    );
  return out;
}
