import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { AppError } from "../../errors";
import { offlineModel } from "./offline-model";
import { scriptedModel, type ScriptStep } from "./scripted-model";

export type ModelEnv = {
  ANTHROPIC_API_KEY?: string;
  OPENAI_API_KEY?: string;
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
      return createAnthropic({ apiKey: ctx.env.ANTHROPIC_API_KEY })(id);
    case "openai":
      return createOpenAI({ apiKey: ctx.env.OPENAI_API_KEY })(id);
    default:
      return createOpenAICompatible({ name: "openai-compatible", baseURL: ctx.env.PLANGATE_BASE_URL ?? "", apiKey: ctx.env.PLANGATE_API_KEY })(id);
  }
}
