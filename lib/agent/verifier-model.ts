import { getEnv } from "../env";
import { callModel } from "../model/call-model";
import { resolveModel } from "../model/resolve-model";
import type { Grader } from "../verify/verify-session";

/** The verifier verify-session asks: the session's model, with no tools (read-only), on the grader prompt. */
export const gradeWithVerifierModel: Grader = async (modelName, prompt) => {
  const step = await callModel({
    model: resolveModel(modelName, { env: getEnv(), stepIndex: 0 }),
    system: prompt.system,
    messages: [{ role: "user", content: [{ type: "text", text: prompt.user }] }],
    tools: [],
    abortSignal: AbortSignal.timeout(120_000),
    // Runs in the background, outside any turn: a few quiet tries, then the deterministic verdicts stand.
    attempts: Math.min(3, getEnv().PLANGATE_MODEL_ATTEMPTS),
    retryBaseMs: getEnv().PLANGATE_RETRY_BASE_MS,
  });
  return step.text;
};
