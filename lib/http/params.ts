import { z } from "zod";

export type IdParams = { params: Promise<{ id: string }> };

const idSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, "not a valid id");

export async function idFrom(ctx: IdParams): Promise<string> {
  const { id } = await ctx.params;
  return idSchema.parse(id);
}
