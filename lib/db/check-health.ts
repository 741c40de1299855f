import type { Db } from "./client";

export async function checkHealth(db: Db): Promise<{ ok: boolean; database: "ok" | "error"; time: string }> {
  try {
    await db.session.count({ take: 1 });
    return { ok: true, database: "ok", time: new Date().toISOString() };
  } catch {
    return { ok: false, database: "error", time: new Date().toISOString() };
  }
}
