import { APICallError } from "@ai-sdk/provider";
import { parseModelName } from "./resolve-model";

// The settings a person fixes for each provider: the key, then where it points.
const SETTINGS: Record<string, { key: string; url: string }> = {
  anthropic: { key: "ANTHROPIC_API_KEY", url: "ANTHROPIC_BASE_URL" },
  openai: { key: "OPENAI_API_KEY", url: "OPENAI_BASE_URL" },
  "openai-compatible": { key: "PLANGATE_API_KEY", url: "PLANGATE_BASE_URL" },
};

/**
 * Pure: what a person reads when a model request failed for good. A provider that refuses the key (401/403) or
 * does not know the model (404) is named with the setting to fix; anything else keeps the provider's message.
 */
export function describeModelError(error: unknown, modelName: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!APICallError.isInstance(error)) return message;
  const { provider, id } = parseModelName(modelName);
  const setting = SETTINGS[provider];
  if (!setting) return message;
  if (error.statusCode === 401 || error.statusCode === 403) {
    return `the ${provider} API refused the key (${error.statusCode}: ${message}). Check ${setting.key}${provider === "openai-compatible" ? ` and ${setting.url}` : ""}.`;
  }
  if (error.statusCode === 404) {
    return `the ${provider} API does not know the model "${id}" or the address (404: ${message}). Check the session's model (PLANGATE_MODEL for new sessions) and ${setting.url}.`;
  }
  return message;
}
