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
