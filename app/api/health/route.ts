import { getDb } from "@/lib/db/client";
import { json, route } from "@/lib/http/route";
import { checkHealth } from "@/lib/db/check-health";

export const dynamic = "force-dynamic";

export const GET = route(async () => {
  const health = await checkHealth(getDb());
  return json(health, health.ok ? 200 : 503);
});
