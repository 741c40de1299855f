import type { Db } from "../db/client";
import type { PermissionMode, Ruleset } from "../permission";
import { getSession } from "../session/get-session";
import type { SessionContext } from "./session-context";

export type Ancestor = { id: string; rules: Ruleset; mode: PermissionMode };

/** A subagent's ancestors with the mode each is in now (read at every step: a parent may have entered plan mode). */
export async function ancestorsNow(db: Db, session: SessionContext): Promise<Ancestor[]> {
  const out: Ancestor[] = [];
  for (const a of session.ancestors) {
    const { state } = await getSession(db, a.id);
    out.push({ ...a, mode: state.mode });
  }
  return out;
}
