import { z } from "zod";

export const messageBody = z.object({ text: z.string().trim().min(1, "text must not be empty").max(100_000) }).strict();
