import { z } from "zod";

export const exportQuery = z.object({ format: z.enum(["md", "json"]).default("json") });
