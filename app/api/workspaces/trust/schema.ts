import { z } from "zod";

export const trustQuery = z.object({ workspace: z.string().min(1).max(4096) }).strict();

/** The hash is the one the person was shown: a file changed since is not trusted (409). */
export const trustBody = z
  .object({
    workspace: z.string().min(1).max(4096),
    hash: z.string().regex(/^[0-9a-f]{64}$/, "the sha-256 of the config shown (64 hex characters)"),
  })
  .strict();
