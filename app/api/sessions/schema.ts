import { z } from "zod";
import { PERMISSION_MODES } from "@/lib/permission";

export const createSessionBody = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    workspace: z.string().min(1).max(4096).optional(),
    agent: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,40}$/, "agent: a lowercase name")
      .default("build"),
    mode: z.enum(PERMISSION_MODES).default("default"),
    model: z.string().min(1).max(200).optional(),
    script: z.array(z.unknown()).max(1000).optional(),
  })
  .strict();

export { listSessionsQuery } from "@/lib/session/list-sessions";
