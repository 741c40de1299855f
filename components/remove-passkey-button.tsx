"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { sendJson } from "./post-json";

/** Removes one of your passkeys (a lost or retired device), after a second click that says which. */
export function RemovePasskeyButton({ id, name }: { id: string; name: string }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    const result = await sendJson("DELETE", `/api/passkeys/${encodeURIComponent(id)}`);
    if (!result.ok) return setError(result.message);
    setConfirming(false);
    router.refresh();
  }

  if (!confirming)
    return (
      <button type="button" className="ml-2 underline" data-testid="remove-passkey" onClick={() => setConfirming(true)}>
        Remove
      </button>
    );
  return (
    <span className="ml-2">
      Remove {name}? It will no longer sign you in.{" "}
      <button type="button" className="underline" data-testid="remove-passkey-confirm" onClick={remove}>
        Remove
      </button>{" "}
      <button type="button" className="underline" onClick={() => setConfirming(false)}>
        Keep
      </button>
      {error ? <span role="alert"> {error}</span> : null}
    </span>
  );
}
