import "server-only";
import { z } from "zod";
import { type Actor, covers, manageableRoots, managesPerson, type Membership, ROLES, signerOf } from "./rules/rights";
import { type Db, withTransaction } from "../db/client";
import { appendAudit } from "../db/people/audit";
import { createLink } from "../db/people/links";
import {
  deactivatePerson,
  findPerson,
  listPeople,
  membershipsOf,
  removeMembership,
  setMembership,
} from "../db/people/people";
import { AppError } from "../errors";
import { signerFor } from "./authorise";

const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const anyRoot = z.string().trim().min(1).max(4096).regex(/^\//, "an absolute path, such as / or /srv/work");
const trimmed = (r: string) => (r.length > 1 ? r.replace(/\/+$/, "") : r);
/** What is wrong with a root given now: a role's root is compared as text with the workspaces under it. */
const spelling = (r: string) =>
  r.split("/").some((part) => part === "." || part === "..")
    ? "a path without . or .. in it"
    : r.includes("//")
      ? "a path without an empty part (//)"
      : null;
const rootPath = anyRoot.superRefine((r, ctx) => {
  const problem = spelling(r);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const inviteBody = z
  .object({
    email: z.string().trim().toLowerCase().email().max(320).optional(),
    role: z.enum(ROLES),
    root: rootPath.transform(trimmed),
  })
  .strict();
// Removing a role (role: null) takes the root as it was stored, however it was spelled then; giving one takes only a
// root spelled one way.
export const roleBody = z
  .object({ root: anyRoot, role: z.enum(ROLES).nullable() })
  .strict()
  .superRefine((b, ctx) => {
    const problem = b.role === null ? null : spelling(b.root);
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["root"] });
  })
  .transform((b) => ({ ...b, root: trimmed(b.root) }));

/** People whose roles the actor may see: all for an owner of /, else those with a role under a root they own. */
export async function peopleFor(db: Db, actor: Actor) {
  const roots = manageableRoots(actor);
  const people = await listPeople(db);
  if (roots === null) return people;
  const mine = (m: Membership) => roots.some((r) => covers(r, m.root));
  return people.flatMap((p) => {
    const shown = p.memberships.filter(mine);
    return shown.length ? [{ ...p, memberships: shown }] : [];
  });
}

/** A one-time invite link (7 days) for a role over a root the actor owns; the secret is only in this answer. */
export async function invitePerson(db: Db, actor: Actor, body: z.infer<typeof inviteBody>, origin: string) {
  const signer = signerFor(actor, "manage", body.root);
  return withTransaction(db, async (trx) => {
    const { link, secret } = await createLink(trx, {
      purpose: "invite",
      role: body.role,
      root: body.root,
      ttlMs: INVITE_TTL_MS,
      ...(body.email ? { email: body.email } : {}),
      ...(signer.by === "person" ? { createdBy: signer.userId } : {}),
    });
    await appendAudit(trx, {
      signer,
      kind: "person.invited",
      workspace: body.root,
      subject: body.email ?? "anyone with the link",
      detail: { role: body.role, root: body.root },
    });
    return {
      url: `${origin}/link/${secret}`,
      expiresAt: link.expiresAt.toISOString(),
      role: body.role,
      root: body.root,
    };
  });
}

async function personOrThrow(db: Db, id: string) {
  const person = await findPerson(db, { id });
  if (!person) throw new AppError("not_found", "No person has that id.");
  return person;
}

/** Gives, changes or takes away a person's role over a root the actor owns. */
export async function changeRole(db: Db, actor: Actor, userId: string, body: z.infer<typeof roleBody>) {
  const signer = signerFor(actor, "manage", body.root);
  const person = await personOrThrow(db, userId);
  await withTransaction(db, async (trx) => {
    if (body.role === null) await removeMembership(trx, userId, body.root);
    else await setMembership(trx, userId, { root: body.root, role: body.role });
    await appendAudit(trx, {
      signer,
      kind: body.role === null ? "person.role.removed" : "person.role.set",
      workspace: body.root,
      subject: person.email,
      detail: { root: body.root, role: body.role },
    });
  });
  return { ...person, memberships: await membershipsOf(db, userId) };
}

/**
 * Ends a person's sessions and tokens at once. Only someone who owns every root the person has a role over:
 * an owner of one team's folder cannot lock out a person another team relies on.
 */
export async function deactivateAccount(db: Db, actor: Actor, userId: string) {
  const person = await personOrThrow(db, userId);
  const by = signerOf(actor);
  if (!by || !managesPerson(actor, await membershipsOf(db, userId)))
    throw new AppError("forbidden", "Only an owner of every root this person works in may deactivate them.");
  await withTransaction(db, async (trx) => {
    await deactivatePerson(trx, userId);
    await appendAudit(trx, { signer: by, kind: "person.deactivated", subject: person.email });
  });
  return { ...person, deactivatedAt: new Date() };
}
