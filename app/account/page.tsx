import { headers } from "next/headers";
import { AddPasskeyButton } from "@/components/add-passkey-button";
import { RemovePasskeyButton } from "@/components/remove-passkey-button";
import { isIpHost, LoopbackNotice } from "@/components/loopback-notice";
import { getDb } from "@/lib/db/client";
import { passkeysOf } from "@/lib/db/people/passkeys";
import { pageActor } from "@/lib/http/page-actor";
import { readNotifications } from "@/lib/notify/manage-choices";
import { NotificationChoices } from "@/components/notification-choices";
import { NoticeLog } from "./notice-log";
import { EnablePushButton } from "@/components/enable-push-button";
import { RemoveDeviceButton } from "@/components/remove-device-button";

export const dynamic = "force-dynamic";

/**
 * Your account: the signed-in person's own passkeys (each removable), a button to add one on this device, and what
 * Plangate tells them and how (issue 46), with their latest notices.
 */
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
  const [keys, notifications] = await Promise.all([
    passkeysOf(getDb(), actor.userId),
    readNotifications(getDb(), actor),
  ]);
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
      <h2 className="font-medium" id="notifications">
        Notifications
      </h2>
      <p className="text-sm">
        Plangate tells you when something waits for your decision, to {notifications.channels.email.address}. A message
        links to the item on the desk, where you sign in as yourself: no message can decide anything.
      </p>
      <NotificationChoices
        initial={notifications.choices}
        available={notifications.channels.email.available}
        slack={notifications.channels.slack}
        push={notifications.channels.push}
        ntfy={notifications.channels.ntfy}
      />
      {notifications.channels.push.publicKey && (
        <>
          <ul className="flex flex-col gap-1 text-sm" data-testid="push-devices">
            {notifications.channels.push.devices.map((d) => (
              <li key={d.id} data-testid="push-device">
                A device through {d.service}, since {new Date(d.createdAt).toLocaleString()}
                <RemoveDeviceButton id={d.id} />
              </li>
            ))}
          </ul>
          <EnablePushButton vapidPublicKey={notifications.channels.push.publicKey} />
        </>
      )}
      <h3 className="font-medium">Latest notices</h3>
      <NoticeLog entries={notifications.log} />
    </section>
  );
}
