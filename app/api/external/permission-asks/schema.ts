import { z } from "zod";
import { EXTERNAL_AGENTS } from "@/lib/session/external-agents";

/** A tool call an outside agent's hook asks Plangate about (Claude Code's PermissionRequest for Bash, Edit, …). */
export const submitExternalAskBody = z
  .object({
    agent: z.enum(EXTERNAL_AGENTS),
    externalSessionId: z.string().min(1).max(200),
    cwd: z.string().min(1).max(4096),
    /** The machine the agent runs on (its host name), shown with the folder: the folder is only a label there. */
    machine: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, "a host name (letters, digits, dots, dashes)")
      .optional(),
    tool: z.string().min(1).max(100),
    input: z.record(z.string(), z.unknown()),
  })
  .strict();

export const awaitExternalAskQuery = z.object({ wait: z.coerce.number().min(0).max(60).default(0) });
