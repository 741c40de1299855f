"use client";

import { useState } from "react";
import { sendJson } from "./post-json";

export type PendingInviteRow = {
  id: string;
  email: string | null;
  role: string | null;
  root: string | null;
  expiresAt: string;
  createdByName: string | null;
};

const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);

/** The invites not yet used: for whom, which role over which root, until when; each revocable. */
export function PendingInvites({ invites }: { invites: readonly PendingInviteRow[] }) {
  return (
    <section aria-labelledby="invites-title" className="flex flex-col gap-2" data-testid="pending-invites">
      <h2 id="invites-title" className="font-semibold">
        Pending invites
      </h2>
      {invites.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="no-pending-invites">
          None: every invite was used, revoked or has expired.
        </p>
      ) : (
        <table className="text-sm">
          <thead>
            <tr className="text-left">
              <th className="pr-4">For</th>
              <th className="pr-4">Role</th>
              <th className="pr-4">Expires</th>
              <th className="pr-4">Made by</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {invites.map((i) => (
              <tr key={i.id} data-testid="pending-invite" data-invite-id={i.id}>
                <td className="pr-4">{i.email ?? "anyone with the link"}</td>
                <td className="pr-4">
                  {i.role} over {i.root}
                </td>
                <td className="pr-4">{day(i.expiresAt)}</td>
                <td className="pr-4">{i.createdByName ?? "operator"}</td>
                <td>
                  <RevokeInviteButton id={i.id} who={i.email ?? "anyone with the link"} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function RevokeInviteButton({ id, who }: { id: string; who: string }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="flex items-center gap-2">
      <button
        type="button"
        className="inline-flex min-h-6 items-center px-1 text-sm underline"
        data-testid="revoke-invite"
        aria-label={`Revoke the invite for ${who}`}
        onClick={async () => {
          const result = await sendJson("DELETE", `/api/invites/${id}`);
          if (result.ok) window.location.reload();
          else setError(result.message);
        }}
      >
        Revoke
      </button>
      {error ? <span role="alert">{error}</span> : null}
    </span>
  );
}
