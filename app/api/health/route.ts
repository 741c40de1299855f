import { getDb } from "@/lib/db/client";
import { checkDatabase } from "@/lib/db/check-health";
import { json, openRoute } from "@/lib/http/route";
import { detectSandbox } from "@/lib/sandbox/detect-sandbox";

export const dynamic = "force-dynamic";

type Health = { ok: boolean; database: "ok" | "error"; sandbox: { available: boolean }; time: string };

// Liveness plus what the UI must warn about: without bubblewrap, plan mode falls back to a command allowlist.
export const GET = openRoute(async () => {
  const sandbox = { available: detectSandbox().available };
  const ok = await checkDatabase(getDb());
  const health: Health = { ok, database: ok ? "ok" : "error", sandbox, time: new Date().toISOString() };
  return json(health, ok ? 200 : 503);
});
