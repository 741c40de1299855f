import { z } from "zod";

// Deleting is final: the caller repeats the session's id to confirm it.
export const deleteBody = z.object({ confirm: z.string().min(1).max(100) }).strict();
