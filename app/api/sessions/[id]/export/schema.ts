import { z } from "zod";

const validZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

export const exportQuery = z.object({
  format: z.enum(["md", "json"]).default("json"),
  /** The reader's time zone (IANA): the Markdown shows times in it, with the zone named. */
  tz: z.string().max(64).refine(validZone, "tz: not a time zone").optional(),
});
