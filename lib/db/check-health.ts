import type { Db } from "./client";
import { detectSandbox } from "../sandbox/detect-sandbox";

export type Health = { ok: boolean; database: "ok" | "error"; sandbox: { available: boolean }; time: string };

/** Liveness plus what the UI must warn about: without bubblewrap, plan mode falls back to a command allowlist. */
export async function checkHealth(db: Db): Promise<Health> {
  const sandbox = { available: detectSandbox().available };
  try {
    await db.session.count({ take: 1 });
    return { ok: true, database: "ok", sandbox, time: new Date().toISOString() };
  } catch {
    return { ok: false, database: "error", sandbox, time: new Date().toISOString() };
  }
}
