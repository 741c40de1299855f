import { z } from "zod";

export const createTeamBody = z
  .object({
    sessionId: z.string().min(1).max(100),
    name: z.string().trim().min(1).max(200).optional(),
    /** Left out: on. Only an owner sends false (the lead's model then approves teammates' plans). */
    personApproval: z.boolean().optional(),
  })
  .strict();

export const updateTeamBody = z.object({ personApproval: z.boolean() }).strict();
