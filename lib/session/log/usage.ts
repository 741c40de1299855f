import { z } from "zod";

const tokens = z.number().int().nonnegative();
/** Tokens a model request (or a turn, summed) used, as the provider reported them. */
export const usageSchema = z.object({
  input: tokens,
  output: tokens,
  cacheRead: tokens.optional(),
  cacheWrite: tokens.optional(),
});
export type Usage = z.infer<typeof usageSchema>;

/** Whether a provider reported any tokens at all (offline and scripted models report none). */
export function hasUsage(usage: Usage | null | undefined): usage is Usage {
  return Boolean(usage && usage.input + usage.output + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0) > 0);
}
