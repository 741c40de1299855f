"use client";

import { useState } from "react";
import { passkeyAuth } from "./passkey-client";

/** Signs in with a passkey saved on this device (no email needed: the passkey names its account), then goes on. */
export function PasskeySignInButton({ next }: { next: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const target = next.startsWith("/") && !next.startsWith("//") ? next : "/";

  async function signIn() {
    setBusy(true);
    setError(null);
    const result = await passkeyAuth().signIn.passkey();
    setBusy(false);
    if (result.error) setError(result.error.message ?? "That passkey did not sign you in.");
    else window.location.assign(target);
  }

  return (
    <div className="flex max-w-sm flex-col gap-2">
      <button
        type="button"
        onClick={signIn}
        disabled={busy}
        data-testid="passkey-sign-in"
        className="rounded border border-zinc-300 px-3 py-1.5 text-sm disabled:opacity-60 dark:border-zinc-700"
      >
        Sign in with a passkey
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400" data-testid="passkey-sign-in-error">
          {error}
        </p>
      )}
    </div>
  );
}
