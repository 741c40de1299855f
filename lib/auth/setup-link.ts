import "server-only";
import type { Db } from "../db/client";
import { createLink, dropSetupLinks } from "../db/people/links";
import { countPeople } from "../db/people/people";

const SETUP_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * While Plangate has no account, each start makes a fresh one-time setup link (the last one stops working) and
 * returns it: opening it creates the owner and signs them in. Null once someone has an account.
 */
export async function setupLink(db: Db, origin: string): Promise<string | null> {
  if ((await countPeople(db)) > 0) return null;
  await dropSetupLinks(db);
  const { secret } = await createLink(db, { purpose: "setup", ttlMs: SETUP_TTL_MS });
  return `${origin}/link/${secret}`;
}
