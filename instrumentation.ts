export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ getDb }, { startScheduler }, { getEnv }, { startWebhookDeliveries }] = await Promise.all([
    import("./lib/db/client"),
    import("./lib/agent/scheduler"),
    import("./lib/env"),
    import("./lib/webhooks/runner"),
  ]);
  getEnv();
  startScheduler(getDb());
  // Always started, even with no hook configured: a workspace may name one, and the outbox must drain.
  startWebhookDeliveries(getDb());
}
