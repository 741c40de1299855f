import { sql, type Db } from "../db/client";
import type { ModeGates } from "../permission";
import { getEnv } from "../env";

// The auto gate lives in the database so that closing it at run time reaches every app instance at once.
export async function readGates(db: Db): Promise<ModeGates> {
  const env = getEnv();
  const [row] = await (await sql(db)).query<{ value: string }>('SELECT "value" FROM "Setting" WHERE "key" = ?', [
    "autoGate",
  ]);
  const autoGateOpen = row ? row.value === "open" : env.PLANGATE_AUTO_GATE === "open";
  return { autoGateOpen, bypassEnabled: env.PLANGATE_ENABLE_BYPASS };
}

export async function setAutoGate(db: Db, open: boolean): Promise<void> {
  await db.setting.upsert({
    where: { key: "autoGate" },
    create: { key: "autoGate", value: open ? "open" : "closed" },
    update: { value: open ? "open" : "closed" },
  });
}
