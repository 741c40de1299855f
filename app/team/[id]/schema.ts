import { z } from "zod";

/** The team page's query: `mailBefore`, the seq its messages end before (the "Earlier messages" link's). */
export const teamPageQuery = z
  .object({ mailBefore: z.coerce.number().int().positive().max(2_147_483_647).optional() })
  .strict();
