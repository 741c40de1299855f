import { createHash } from "node:crypto";
import { isPlangateHook } from "./hook-command";

/**
 * Codex's user hooks file ($CODEX_HOME/hooks.json) and the trust Codex records for each hook in config.toml
 * (`[hooks.state."<hooks.json>:<event>:<group>:<handler>"] trusted_hash = "sha256:…"`): Codex 0.171 silently skips
 * a hook whose recorded hash is missing or stale. Pure.
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

const tomlString = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
const header = (key: string) => `[hooks.state.${tomlString(key)}]`;

/**
 * config.toml with the trust entries of `drop` taken out and those of `add` written, everything else as it was:
 * each entry is its own table, removed from its header to the next table's.
 */
export function withTrustedHooks(
  toml: string,
  drop: readonly string[],
  add: readonly { key: string; hash: string }[],
): string {
  const gone = new Set([...drop, ...add.map((a) => a.key)].map(header));
  const out: string[] = [];
  let skipping = false;
  for (const line of toml.split("\n")) {
    const t = line.trim();
    if (t.startsWith("[")) skipping = gone.has(t);
    if (!skipping) out.push(line);
  }
  let text = out.join("\n").replace(/\n+$/, "");
  for (const a of add) text += `${text ? "\n\n" : ""}${header(a.key)}\ntrusted_hash = ${tomlString(a.hash)}`;
  return `${text}\n`;
}

/** The trusted_hash config.toml records for a key, read back from the text as written above. */
export function recordedHash(toml: string, key: string): string | null {
  const lines = toml.split("\n");
  const at = lines.findIndex((l) => l.trim() === header(key));
  if (at < 0) return null;
  for (const l of lines.slice(at + 1)) {
    if (l.trim().startsWith("[")) break;
    const m = /^\s*trusted_hash\s*=\s*"([^"]*)"/.exec(l);
    if (m) return m[1] ?? null;
  }
  return null;
}
