import { z } from "zod";
import { PERMISSION_MODES } from "@/lib/permission";

export const modeBody = z.object({ mode: z.enum(PERMISSION_MODES) }).strict();
