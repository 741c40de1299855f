"use client";

import { useState } from "react";
import { localPath, SSO_PROVIDER_ID, SSO_START_PATH } from "@/lib/auth/rules/sso";
import { postJson } from "./post-json";

/**
 * "Sign in with <provider>": asks the server for the provider's authorization URL (better-auth keeps the state,
 * PKCE verifier and nonce) and goes there. The provider sends the browser back to our callback, which goes on
 * to `next`, or to the sign-in page with `?error=` when Plangate refused the person.
 */
export function SsoButton(props: { name: string; next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const next = localPath(props.next);

  async function start() {
    setBusy(true);
    setError(null);
    const result = await postJson<{ url?: string }>(SSO_START_PATH, {
      provider: SSO_PROVIDER_ID,
      callbackURL: next,
      errorCallbackURL: `/sign-in?next=${encodeURIComponent(next)}`,
    });
    const url = result.ok ? result.data.url : undefined;
    if (url && /^https?:\/\//.test(url)) window.location.assign(url);
    else {
      setBusy(false);
      setError(result.ok ? "The provider could not be reached. Try again later." : result.message);
    }
  }

  return (
    <div className="flex max-w-sm flex-col gap-2">
      <button
        type="button"
        onClick={start}
        disabled={busy}
        data-testid="sso-sign-in"
        className="rounded border border-zinc-300 px-3 py-1.5 text-sm disabled:opacity-60 dark:border-zinc-700"
      >
        Sign in with {props.name}
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400" data-testid="sso-start-error">
          {error}
        </p>
      )}
    </div>
  );
}
