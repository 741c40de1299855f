import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { listDeliveries } from "@/lib/webhooks/list-deliveries";
import { listDeliveriesQuery } from "./schema";

export const dynamic = "force-dynamic";

// The token (proxy.ts) is the authorisation, as for every read: the log holds no secret (URLs lose their query).
export const GET = route("read", async (req) =>
  json({ deliveries: await listDeliveries(getDb(), parseQuery(req, listDeliveriesQuery)) }),
);
