import { headers } from "next/headers";
import { AddPasskeyButton } from "@/components/add-passkey-button";
import { RemovePasskeyButton } from "@/components/remove-passkey-button";
import { isIpHost, LoopbackNotice } from "@/components/loopback-notice";
import { getDb } from "@/lib/db/client";
import { passkeysOf } from "@/lib/db/people/passkeys";
import { pageActor } from "@/lib/http/page-actor";

export const dynamic = "force-dynamic";

/** Your account: the signed-in person's own passkeys (each removable), and a button to add one on this device. */
export default async function AccountPage() {
  const actor = await pageActor();
  const host = (await headers()).get("host") ?? "";
  if (actor.kind !== "person")
    return (
      <section className="flex flex-col gap-2">
        <h1 className="text-xl font-semibold">Your account</h1>
        <p className="text-sm" data-testid="account-not-a-person">
          You are acting with the operator token or a token, not as a person: passkeys belong to people who sign in.
        </p>
      </section>
    );
  const keys = await passkeysOf(getDb(), actor.userId);
  return (
    <section aria-labelledby="account-title" className="flex flex-col gap-4">
      <h1 id="account-title" className="text-xl font-semibold">
        Your account
      </h1>
      <p className="text-sm">Signed in as {actor.name}.</p>
      <h2 className="font-medium">Passkeys</h2>
      {keys.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="no-passkeys">
          No passkeys yet. A passkey signs you in on this device without your password.
        </p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm" data-testid="passkey-list">
          {keys.map((k) => (
            <li key={k.id} data-testid="passkey-row">
              {k.name ?? "Passkey"}
              {k.createdAt && (
                <span className="text-zinc-600 dark:text-zinc-400"> · added {k.createdAt.toLocaleString()}</span>
              )}
              <RemovePasskeyButton id={k.id} name={k.name ?? "this passkey"} />
            </li>
          ))}
        </ul>
      )}
      <LoopbackNotice host={host} />
      {!isIpHost(host) && <AddPasskeyButton />}
    </section>
  );
}
