import { z } from "zod";
import { cursorParam, limitParam } from "@/lib/session/log/cursor";
import { HISTORY_PLANS, planVersionCursor } from "@/lib/session/session-history";

export const historyQuery = z
  .object({
    /** How many plan versions, newest first. */
    plansLimit: limitParam(HISTORY_PLANS),
    /** The plan versions after this cursor (the `plansNext` of the page before). */
    plansAfter: cursorParam(planVersionCursor).optional(),
  })
  .strict();
