import { z } from "zod";

export const forkBody = z.object({ atSeq: z.number().int().min(1).optional() }).strict();
