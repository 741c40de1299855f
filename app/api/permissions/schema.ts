import { z } from "zod";

export const listPermissionsQuery = z.object({
  status: z.enum(["pending", "once", "always", "reject"]).optional(),
  sessionId: z.string().min(1).max(100).optional(),
});
