import { z } from "zod";

export const stateQuery = z.object({ at: z.coerce.number().int().min(1) });
