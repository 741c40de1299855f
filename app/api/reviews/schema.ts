import { z } from "zod";

export const listReviewsQuery = z.object({
  status: z.enum(["pending", "answered", "abandoned", "approved", "rejected", "answered_elsewhere"]).optional(),
  sessionId: z.string().min(1).max(100).optional(),
});
