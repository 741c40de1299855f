import { z } from "zod";

export const joinTeamBody = z.object({ sessionId: z.string().min(1).max(100) }).strict();
