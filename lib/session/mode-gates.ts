import type { Db } from "../db/client";
import { readSetting, writeSetting } from "../db/settings";
import type { ModeGates } from "../permission";
import { getEnv } from "../env";

const AUTO_GATE = "autoGate";

// The auto gate lives in the database so that closing it at run time reaches every app instance at once.
export async function readGates(db: Db): Promise<ModeGates> {
  const env = getEnv();
  const value = await readSetting(db, AUTO_GATE);
  const autoGateOpen = value !== null ? value === "open" : env.PLANGATE_AUTO_GATE === "open";
  return { autoGateOpen, bypassEnabled: env.PLANGATE_ENABLE_BYPASS };
}

export async function setAutoGate(db: Db, open: boolean): Promise<void> {
  await writeSetting(db, AUTO_GATE, open ? "open" : "closed", new Date());
}
