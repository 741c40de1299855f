import "server-only";
import { type Actor, covers, manageableRoots, signerOf } from "./rules/rights";
import { type Db, withTransaction } from "../db/client";
import { appendAudit } from "../db/people/audit";
import { deleteUnusedInvite, findUnusedInvite, listPendingInvites } from "../db/people/links";
import { AppError } from "../errors";
import { signerFor } from "./authorise";

/*
 * Pending invites on the People page (issue 42): who each is for, the role it gives, until when; an owner revokes
 * one and its link refuses. A link's secret is only in the answer that made it (the table keeps its hash), so the
 * list can name an invite but not show its link again.
 */

/** The pending invites for roles under roots the actor owns (all of them for an owner of /). */
export async function pendingInvitesFor(db: Db, actor: Actor) {
  const roots = manageableRoots(actor);
  const invites = await listPendingInvites(db);
  const view = invites.map((i) => ({
    ...i,
    expiresAt: i.expiresAt.toISOString(),
    createdAt: i.createdAt.toISOString(),
  }));
  if (roots === null) return view;
  return view.filter((i) => i.root !== null && roots.some((r) => covers(r, i.root as string)));
}

/** Revokes an unused invite over a root the actor owns: its link then refuses, like a used one. */
export async function revokeInvite(db: Db, actor: Actor, id: string) {
  const invite = await findUnusedInvite(db, id);
  // Someone who does not own its root learns nothing of it (not even that it exists); an old invite with no root
  // is for the whole server, an owner of /'s.
  if (!invite || !signerOf(actor) || !mayManage(actor, invite.root ?? "/"))
    throw new AppError("not_found", "No pending invite has that id.");
  const signer = signerFor(actor, "manage", invite.root ?? "/");
  await withTransaction(db, async (trx) => {
    if (!(await deleteUnusedInvite(trx, id))) throw new AppError("conflict", "That invite was used or revoked first.");
    await appendAudit(trx, {
      signer,
      kind: "person.invite.revoked",
      workspace: invite.root,
      subject: invite.email ?? "anyone with the link",
      detail: { role: invite.role, root: invite.root },
    });
  });
  return { id, revoked: true };
}

function mayManage(actor: Actor, root: string): boolean {
  const roots = manageableRoots(actor);
  return roots === null || roots.some((r) => covers(r, root));
}
