import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { AppError } from "../errors";
import { offlineModel } from "./offline-model";
import { scriptedModel, type ScriptStep } from "./scripted-model";
import { modelConfigError, parseModelName, type ModelEnv } from "./rules/model-name";

export { modelConfigError, parseModelName, type ModelEnv };

const ANTHROPIC_DEFAULT = "https://api.anthropic.com/v1";
const OPENAI_DEFAULT = "https://api.openai.com/v1";

/**
 * The Anthropic API base the provider appends `/messages` to. ANTHROPIC_BASE_URL follows the Anthropic SDK and
 * Claude Code (no `/v1`: https://api.anthropic.com); one already ending in `/v1` is taken as it is.
 */
export function anthropicBaseUrl(value: string | undefined): string {
  if (!value) return ANTHROPIC_DEFAULT;
  const trimmed = value.replace(/\/+$/, "");
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

/** The OpenAI API base, `/v1` included (as in the OpenAI SDK); the provider appends `/responses`. */
export function openaiBaseUrl(value: string | undefined): string {
  return value ? value.replace(/\/+$/, "") : OPENAI_DEFAULT;
}

export function resolveModel(
  name: string,
  ctx: { env: ModelEnv; script?: ScriptStep[]; stepIndex: number },
): LanguageModelV3 {
  const error = modelConfigError(name, ctx.env);
  if (error) throw new AppError("bad_request", error);
  const { provider, id } = parseModelName(name);
  switch (provider) {
    case "offline":
      return offlineModel();
    case "scripted":
      return scriptedModel(ctx.script ?? [], ctx.stepIndex);
    case "anthropic":
      // The base URL is always passed: left undefined, the provider would read process.env itself, unvalidated.
      return createAnthropic({
        apiKey: ctx.env.ANTHROPIC_API_KEY,
        baseURL: anthropicBaseUrl(ctx.env.ANTHROPIC_BASE_URL),
      })(id);
    case "openai":
      // The Responses API (POST <base>/responses), the provider's default for createOpenAI()(id).
      return createOpenAI({ apiKey: ctx.env.OPENAI_API_KEY, baseURL: openaiBaseUrl(ctx.env.OPENAI_BASE_URL) })(id);
    default:
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: ctx.env.PLANGATE_BASE_URL ?? "",
        apiKey: ctx.env.PLANGATE_API_KEY,
        includeUsage: true,
      })(id);
  }
}
