// Model names and the settings each provider needs: pure, so the environment check at boot can use it.

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
  if (provider === "anthropic")
    return env.ANTHROPIC_API_KEY ? null : "ANTHROPIC_API_KEY is required for anthropic models";
  if (provider === "openai") return env.OPENAI_API_KEY ? null : "OPENAI_API_KEY is required for openai models";
  if (provider === "openai-compatible")
    return env.PLANGATE_BASE_URL ? null : "PLANGATE_BASE_URL is required for openai-compatible models";
  return `unknown model provider "${provider}" (use offline, anthropic:, openai: or openai-compatible:)`;
}
