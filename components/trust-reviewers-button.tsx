"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { sendJson } from "./post-json";

/** Trusts exactly the `.plangate/reviewers` content shown (its hash): its owners then add requirements. */
export function TrustReviewersButton({ workspace, hash }: { workspace: string; hash: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  return (
    <span>
      <button
        type="button"
        data-testid="trust-reviewers"
        className="rounded border border-zinc-500 px-3 py-1 text-sm"
        onClick={async () => {
          const r = await sendJson("POST", "/api/policies/owners", { workspace, hash });
          if (r.ok) router.refresh();
          else setError(r.message);
        }}
      >
        Trust these reviewers
      </button>
      {error ? <span role="alert"> {error}</span> : null}
    </span>
  );
}
