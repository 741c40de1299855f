import { z } from "zod";

export const listGrantsQuery = z
  .object({
    sessionId: z.string().min(1).max(100).optional(),
    workspace: z.string().min(1).max(4096).optional(),
  })
  .strict()
  .refine(
    (q) => (q.sessionId === undefined) !== (q.workspace === undefined),
    "give exactly one of sessionId or workspace",
  );
