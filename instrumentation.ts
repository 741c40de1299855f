export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ getDb }, { startRecovery }, { getEnv }] = await Promise.all([
    import("./lib/db/client"),
    import("./lib/agent/recover-interrupted"),
    import("./lib/env"),
  ]);
  getEnv();
  startRecovery(getDb());
}
