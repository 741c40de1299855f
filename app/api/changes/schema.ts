import { z } from "zod";

/** since: when the page read what it shows (ms since the epoch); changes from then on are told when the stream opens. */
export const changesQuery = z.object({ since: z.coerce.number().int().nonnegative().optional() }).strict();
