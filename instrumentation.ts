export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ getDb }, { startScheduler }, { getEnv }] = await Promise.all([
    import("./lib/db/client"),
    import("./lib/agent/scheduler"),
    import("./lib/env"),
  ]);
  getEnv();
  startScheduler(getDb());
}
