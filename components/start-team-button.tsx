"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { postJson } from "./post-json";

/** Makes this session a team lead and opens its mailbox. */
export function StartTeamButton({ sessionId }: { sessionId: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    const r = await postJson<{ team: { id: string } }>("/api/teams", { sessionId });
    if (r.ok) router.push(`/team/${r.data.team.id}`);
    else setError(r.message);
  };
  return (
    <span className="text-xs">
      <button
        type="button"
        data-testid="start-team"
        onClick={() => void start()}
        className="rounded border px-2 py-0.5"
      >
        Lead a team
      </button>
      {error ? <span role="alert"> {error}</span> : null}
    </span>
  );
}
