import type { Env } from "../env";
import { isWebhookUrl } from "../env";
import type { WorkspaceConfig } from "../workspace/workspace-config";
import type { WebhookEvent } from "./event-names";

/** A URL owed one event; `refused` says why it will never be called (recorded so the log shows it). */
export type WebhookTarget = { url: string; source: "server" | "workspace"; refused?: string };

/**
 * Why a workspace's hook may not be called, or null when it may. The workspace config is untrusted (an agent
 * may have written it), so it could otherwise make the server call internal addresses (SSRF) with signed
 * bodies: only hosts the operator listed in PLANGATE_WEBHOOK_HOSTS are reachable from it, by exact name.
 */
export function workspaceUrlRefusal(
  url: string,
  env: Pick<Env, "webhookHosts" | "PLANGATE_WEBHOOK_SECRET">,
): string | null {
  if (!isWebhookUrl(url)) return "not an absolute http(s) URL of at most 2000 characters";
  const { host, username, password } = new URL(url);
  if (username || password) return "credentials in a workspace webhook URL are not allowed";
  // "name" allows the scheme's default port only (URL drops it from host); "name:port" that port.
  const allowed = env.webhookHosts.some((h) => h === host.toLowerCase());
  if (!allowed) return `host ${host} is not in PLANGATE_WEBHOOK_HOSTS`;
  // Workspace hooks are signed with the server's secret (never one from the file, which the agent could read).
  if (!env.PLANGATE_WEBHOOK_SECRET) return "PLANGATE_WEBHOOK_SECRET is not set";
  return null;
}

/**
 * Pure: the URLs one event goes to. The server's hooks (PLANGATE_WEBHOOKS) get every event; a workspace hook
 * only the events it lists (all when it lists none), and only once a person trusted the config that names it.
 * A URL named twice is called once, as the server's.
 */
export function webhookTargets(
  event: WebhookEvent,
  env: Pick<Env, "webhooks" | "webhookHosts" | "PLANGATE_WEBHOOK_SECRET">,
  config: WorkspaceConfig,
  trusted: boolean,
): WebhookTarget[] {
  const out: WebhookTarget[] = env.webhooks.map((url) => ({ url, source: "server" }));
  const seen = new Set(env.webhooks);
  for (const hook of config.webhooks ?? []) {
    if (hook.events && !hook.events.includes(event)) continue;
    if (seen.has(hook.url)) continue;
    seen.add(hook.url);
    const refused = trusted
      ? workspaceUrlRefusal(hook.url, env)
      : "the workspace's config (.plangate/config.json) is not trusted: a person trusts it on the workspace page";
    out.push(refused ? { url: hook.url, source: "workspace", refused } : { url: hook.url, source: "workspace" });
  }
  return out;
}
