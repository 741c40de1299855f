export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ getDb }, { startScheduler }, { getEnv }, { startWebhookDeliveries }, { stopOnSignal }] = await Promise.all([
    import("./lib/db/client"),
    import("./lib/agent/scheduler"),
    import("./lib/env"),
    import("./lib/webhooks/runner"),
    import("./lib/session/stop-on-signal"),
  ]);
  getEnv();
  // SIGTERM stops the server in time though browser tabs hold live streams open.
  stopOnSignal();
  startScheduler(getDb());
  // Always started, even with no hook configured: a workspace may name one, and the outbox must drain.
  startWebhookDeliveries(getDb());
  // The live streams' route handlers, for scripts/stream-routes.mjs to answer them beside Next's request handler:
  // loaded by the first stream, not at start.
  (globalThis as { plangateStreamRoutes?: () => Promise<unknown> }).plangateStreamRoutes = async () => {
    const [changes, stream] = await Promise.all([
      import("./app/api/changes/route"),
      import("./app/api/sessions/[id]/stream/route"),
    ]);
    return { changes: changes.GET, stream: stream.GET };
  };
}
