"use client";

import { useState } from "react";
import { postJson } from "./post-json";

/** An owner's actions on one person: deactivate (sessions and tokens stop at once). */
export function PersonActions({ id, email, active }: { id: string; email: string; active: boolean }) {
  const [error, setError] = useState<string | null>(null);
  if (!active) return <span className="text-xs">deactivated</span>;
  return (
    <span className="flex items-center gap-2">
      <button
        type="button"
        className="inline-flex min-h-6 items-center px-1 text-sm underline"
        data-testid={`deactivate-${email}`}
        onClick={async () => {
          if (!window.confirm(`Deactivate ${email}? Their sessions and tokens stop at once.`)) return;
          const result = await postJson(`/api/people/${id}/deactivate`, {});
          if (result.ok) window.location.reload();
          else setError(result.message);
        }}
      >
        Deactivate
      </button>
      {error ? <span role="alert">{error}</span> : null}
    </span>
  );
}
