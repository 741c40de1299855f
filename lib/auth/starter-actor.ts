import "server-only";
import type { Actor } from "./rules/rights";
import type { Db } from "../db/client";
import { findPerson, membershipsOf } from "../db/people/people";
import { findSessionOwner } from "../db/sessions";

/**
 * Whose rights a session's own agent acts with when it chooses for others (a team lead's model approving a
 * teammate into a mode): the person who started the session, as they are now (a deactivated person has none); the
 * operator for a session the operator started. Null when the session is gone.
 */
export async function starterActor(db: Db, sessionId: string): Promise<{ actor: Actor; workspace: string } | null> {
  const owner = await findSessionOwner(db, sessionId);
  if (!owner) return null;
  if (owner.startedBy === null) return { actor: { kind: "operator" }, workspace: owner.workspace };
  const person = await findPerson(db, { id: owner.startedBy });
  const memberships = person && !person.deactivatedAt ? await membershipsOf(db, owner.startedBy) : [];
  return {
    actor: { kind: "person", userId: owner.startedBy, name: person?.name ?? "", memberships },
    workspace: owner.workspace,
  };
}
