import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { AppError } from "../errors";
import { offlineModel } from "./offline-model";
import { scriptedModel, type ScriptStep } from "./scripted-model";

export type ModelEnv = {
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  PLANGATE_BASE_URL?: string;
  PLANGATE_API_KEY?: string;
};

/** "offline", "scripted", "anthropic:<id>", "openai:<id>" or "openai-compatible:<id>" (Ollama, vLLM, llama.cpp, DeepSeek). */
export function parseModelName(name: string): { provider: string; id: string } {
  const i = name.indexOf(":");
  return i < 0 ? { provider: name, id: name } : { provider: name.slice(0, i), id: name.slice(i + 1) };
}

/** Pure check used at boot and on session creation: names the missing setting instead of failing mid-turn. */
export function modelConfigError(name: string, env: ModelEnv): string | null {
  const { provider, id } = parseModelName(name);
  if (provider === "offline" || provider === "scripted") return null;
  if (!id) return `model "${name}" needs a model id after the colon`;
  if (provider === "anthropic") return env.ANTHROPIC_API_KEY ? null : "ANTHROPIC_API_KEY is required for anthropic models";
  if (provider === "openai") return env.OPENAI_API_KEY ? null : "OPENAI_API_KEY is required for openai models";
  if (provider === "openai-compatible") return env.PLANGATE_BASE_URL ? null : "PLANGATE_BASE_URL is required for openai-compatible models";
  return `unknown model provider "${provider}" (use offline, anthropic:, openai: or openai-compatible:)`;
}

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

export function resolveModel(name: string, ctx: { env: ModelEnv; script?: ScriptStep[]; stepIndex: number }): LanguageModelV3 {
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
      return createAnthropic({ apiKey: ctx.env.ANTHROPIC_API_KEY, baseURL: anthropicBaseUrl(ctx.env.ANTHROPIC_BASE_URL) })(id);
    case "openai":
      // The Responses API (POST <base>/responses), the provider's default for createOpenAI()(id).
      return createOpenAI({ apiKey: ctx.env.OPENAI_API_KEY, baseURL: openaiBaseUrl(ctx.env.OPENAI_BASE_URL) })(id);
    default:
      return createOpenAICompatible({ name: "openai-compatible", baseURL: ctx.env.PLANGATE_BASE_URL ?? "", apiKey: ctx.env.PLANGATE_API_KEY, includeUsage: true })(id);
  }
}
