import { readableFilter } from "@/lib/auth/rules/rights";
import { getDb } from "@/lib/db/client";
import { json, parseQuery, route } from "@/lib/http/route";
import { listDeliveries } from "@/lib/webhooks/list-deliveries";
import { listDeliveriesQuery } from "./schema";

export const dynamic = "force-dynamic";

// The log holds no secret (URLs lose their query); a person sees the deliveries of the sessions they may read.
export const GET = route("read", async (req, _ctx, actor) =>
  json({
    deliveries: await listDeliveries(getDb(), { ...parseQuery(req, listDeliveriesQuery), ...readableFilter(actor) }),
  }),
);
