import "server-only";
import { z } from "zod";
import { type Actor, manageableRoots } from "../core/people";
import type { Db } from "../db/client";
import { type AuditView, listAudit } from "../db/people/audit";
import { findPerson } from "../db/people/people";

export const auditQuery = z
  .object({
    /** A person's email. */
    person: z.string().trim().max(320).optional(),
    workspace: z.string().trim().max(4096).optional(),
    kind: z.string().trim().max(100).optional(),
    format: z.enum(["json", "csv"]).default("json"),
    limit: z.coerce.number().int().min(1).max(1000).default(200),
  })
  .strict();
export type AuditQuery = z.input<typeof auditQuery>;

/**
 * The audit log as the actor may read it: everything for an owner of / (or the operator); for an owner of some
 * roots, the acts in workspaces under them. Filtered by person, workspace and kind; newest first.
 */
export async function readAudit(db: Db, actor: Actor, input: AuditQuery): Promise<AuditView[]> {
  const q = auditQuery.parse(input);
  const roots = manageableRoots(actor);
  let userId: string | undefined;
  if (q.person) {
    const person = await findPerson(db, { email: q.person });
    if (!person) return [];
    userId = person.id;
  }
  return listAudit(db, {
    limit: q.limit,
    ...(userId ? { userId } : {}),
    ...(q.workspace ? { workspace: q.workspace } : {}),
    ...(q.kind ? { kind: q.kind } : {}),
    ...(roots ? { roots } : {}),
  });
}
