// Issue 46: Slack's Web API through @slack/web-api, at PLANGATE_SLACK_API_URL (Slack itself, or a gateway). The
// runner retries on its own schedule, so the client does not retry or wait out rate limits itself.
import "server-only";
import { ErrorCode, WebClient } from "@slack/web-api";
import type { Env } from "../env";

const clients = new Map<string, WebClient>();

export function slackConfigured(env: Env): boolean {
  return Boolean(env.PLANGATE_SLACK_BOT_TOKEN && env.PLANGATE_SLACK_SIGNING_SECRET);
}

export function slackClient(env: Env, timeoutMs = 10_000): WebClient {
  const token = env.PLANGATE_SLACK_BOT_TOKEN;
  if (!token) throw new Error("Slack is not configured (PLANGATE_SLACK_BOT_TOKEN)");
  const url = `${env.PLANGATE_SLACK_API_URL.replace(/\/+$/, "")}/`;
  const key = `${url} ${token}`;
  let client = clients.get(key);
  if (!client) {
    client = new WebClient(token, {
      slackApiUrl: url,
      timeout: timeoutMs,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    clients.set(key, client);
  }
  return client;
}

/** An error Slack answered with ("channel_not_found", "not_in_channel"…): trying again will not help. */
export function slackRefused(error: unknown): boolean {
  return (error as { code?: unknown }).code === ErrorCode.PlatformError;
}
