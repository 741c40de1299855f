"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { postJson } from "./post-json";

/** A person sends an outside agent's next plans to a team's mailbox (its lead's people answer them there). */
export function JoinTeamButton({ sessionId, team }: { sessionId: string; team: { id: string; name: string } }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const join = async () => {
    const r = await postJson(`/api/teams/${team.id}/members`, { sessionId });
    if (r.ok) router.refresh();
    else setError(r.message);
  };
  return (
    <span className="text-xs">
      <button type="button" data-testid="join-team" onClick={() => void join()} className="rounded border px-2 py-0.5">
        Send its next plans to {team.name}
      </button>
      {error ? <span role="alert"> {error}</span> : null}
    </span>
  );
}
