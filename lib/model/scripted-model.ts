import { z } from "zod";
import { localModel } from "./local-model";

export const scriptStepSchema = z.object({
  text: z.string().optional(),
  /** Stream the text word by word with this delay between words (to show streaming in tests and demos). */
  streamDelayMs: z.number().int().min(0).max(2_000).optional(),
  toolCalls: z
    .array(z.object({ name: z.string().min(1), input: z.record(z.string(), z.unknown()).default({}) }))
    .optional(),
});
export const scriptSchema = z.array(scriptStepSchema).max(1000);
export type ScriptStep = z.infer<typeof scriptStepSchema>;

/**
 * A model that plays back a script: the n-th model call of a session gets step n. The index comes from the
 * session log (how many model calls were made before), so a restart resumes the script where it was.
 */
export function scriptedModel(script: ScriptStep[], stepIndex: number) {
  return localModel("scripted", "scripted", () => script[stepIndex] ?? { text: "" });
}

export function isScriptExhausted(script: ScriptStep[], stepIndex: number): boolean {
  return stepIndex >= script.length;
}
