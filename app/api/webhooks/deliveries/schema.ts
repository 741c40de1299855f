import { z } from "zod";
import { DELIVERY_STATUSES } from "@/lib/webhooks/list-deliveries";

export const listDeliveriesQuery = z.object({
  sessionId: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, "not a valid id")
    .optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
