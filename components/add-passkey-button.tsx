"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { passkeyAuth } from "./passkey-client";

/** Adds a passkey to the signed-in person's own account (the server takes the person from the session). */
export function AddPasskeyButton() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  async function add() {
    setBusy(true);
    setMessage(null);
    const { error } = await passkeyAuth().passkey.addPasskey({ name: `Passkey ${new Date().toLocaleDateString()}` });
    setBusy(false);
    if (error) setMessage({ ok: false, text: error.message ?? "The passkey was not added." });
    else {
      setMessage({ ok: true, text: "Passkey added. You can sign in with it next time." });
      // The list above is rendered on the server: fetch it again to show the new one.
      router.refresh();
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        onClick={add}
        disabled={busy}
        data-testid="add-passkey"
        className="self-start rounded bg-zinc-900 px-3 py-1.5 text-sm text-white disabled:opacity-60 dark:bg-zinc-100 dark:text-zinc-900"
      >
        Add a passkey
      </button>
      {message && (
        <p
          role={message.ok ? "status" : "alert"}
          data-testid={message.ok ? "passkey-added" : "passkey-error"}
          className={message.ok ? "text-sm" : "text-sm text-red-700 dark:text-red-400"}
        >
          {message.text}
        </p>
      )}
    </div>
  );
}
