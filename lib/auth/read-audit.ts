import "server-only";
import { z } from "zod";
import { cursorId, cursorParam, cursorTime, keysetPage, limitParam } from "../session/log/cursor";
import { type Actor, manageableRoots } from "./rules/rights";
import type { Db } from "../db/client";
import { type AuditView, listAudit } from "../db/people/audit";
import { findPerson } from "../db/people/people";

/** Where a page of the log ended: the last act's time (ms) and id. */
const auditCursor = z.object({ at: cursorTime, id: cursorId }).strict();

export const auditQuery = z
  .object({
    /** A person's email. */
    person: z.string().trim().max(320).optional(),
    workspace: z.string().trim().max(4096).optional(),
    kind: z.string().trim().max(100).optional(),
    format: z.enum(["json", "csv"]).default("json"),
    limit: limitParam(200, 1000),
    /** The acts after this cursor (the `next` of the page before). */
    after: cursorParam(auditCursor).optional(),
  })
  .strict();
export type AuditQuery = z.output<typeof auditQuery>;
export type AuditPage = { entries: AuditView[]; next: string | null };

/**
 * The audit log as the actor may read it: everything for an owner of / (or the operator); for an owner of some
 * roots, the acts in workspaces under them. Filtered by person, workspace and kind; newest first, a page at a time
 * (`next`: the following page's `after`, null on the last).
 */
export async function readAudit(db: Db, actor: Actor, q: AuditQuery): Promise<AuditPage> {
  const roots = manageableRoots(actor);
  let userId: string | undefined;
  if (q.person) {
    const person = await findPerson(db, { email: q.person });
    if (!person) return { entries: [], next: null };
    userId = person.id;
  }
  const rows = await listAudit(
    db,
    {
      ...(userId ? { userId } : {}),
      ...(q.workspace ? { workspace: q.workspace } : {}),
      ...(q.kind ? { kind: q.kind } : {}),
      ...(q.after ? { after: { at: new Date(q.after.at), id: q.after.id } } : {}),
      ...(roots ? { roots } : {}),
    },
    q.limit,
  );
  const { page, next } = keysetPage(rows, q.limit, (last) => ({ at: last.at.getTime(), id: last.id }));
  return { entries: page, next };
}
