import { pageActor } from "@/lib/http/page-actor";
import { manageableRoots, mayAnywhere } from "@/lib/auth/rules/rights";
import { getDb } from "@/lib/db/client";
import { peopleFor } from "@/lib/auth/manage-people";
import { pendingInvitesFor } from "@/lib/auth/manage-invites";
import { PendingInvites } from "@/components/pending-invites";
import { InviteForm } from "@/components/invite-form";
import { PersonActions } from "@/components/person-actions";

export const dynamic = "force-dynamic";

/** An owner's People page: who has which role over which root, invites (pending ones revocable), deactivation. */
export default async function PeoplePage() {
  const actor = await pageActor();
  if (!mayAnywhere(actor, "manage"))
    return <p data-testid="people-not-owner">Only an owner manages people. Ask one for an invite or a role.</p>;
  const [people, invites] = await Promise.all([peopleFor(getDb(), actor), pendingInvitesFor(getDb(), actor)]);
  const roots = manageableRoots(actor) ?? ["/"];
  return (
    <section aria-labelledby="people-title" className="flex flex-col gap-4">
      <h1 id="people-title" className="text-xl font-semibold">
        People
      </h1>
      <InviteForm roots={[...roots]} />
      <PendingInvites invites={invites} />
      <table className="text-sm" data-testid="people-table">
        <thead>
          <tr className="text-left">
            <th className="pr-4">Name</th>
            <th className="pr-4">Email</th>
            <th className="pr-4">Roles</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {people.map((p) => (
            <tr key={p.id} data-testid={`person-${p.email}`}>
              <td className="pr-4">{p.name}</td>
              <td className="pr-4">{p.email}</td>
              <td className="pr-4">{p.memberships.map((m) => `${m.role} over ${m.root}`).join(", ") || "none"}</td>
              <td>
                <PersonActions id={p.id} email={p.email} active={p.deactivatedAt === null} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
