"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { NOTIFY_EVENTS, type NotifyChoices, type NotifyEvent } from "@/lib/notify/rules/notify-policy";
import { sendJson } from "./post-json";

const LABELS: Record<NotifyEvent, string> = {
  waiting: "An item waits for my decision",
  reminder: "Reminders, and escalations of items in workspaces I own",
  decided: "An item I was told about, or my session's plan, is decided",
  verification: "The work after my approved plan failed verification",
};

/** The signed-in person's email choices: on or off, and which events it carries. Saved with one button. */
export function NotificationChoices({
  initial,
  available,
  slack: slackChannel,
  push: pushChannel,
  ntfy: ntfyChannel,
}: {
  initial: NotifyChoices;
  available: boolean;
  slack: { available: boolean; linked: boolean };
  push: { available: boolean; devices: readonly unknown[] };
  ntfy: { available: boolean; server: string | null };
}) {
  const router = useRouter();
  const [email, setEmail] = useState(initial.email);
  const [slack, setSlack] = useState(initial.slack);
  const [push, setPush] = useState(initial.push);
  const [topic, setTopic] = useState(initial.ntfyTopic ?? "");
  const [events, setEvents] = useState<readonly NotifyEvent[]>(initial.events);
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save() {
    setBusy(true);
    const ntfyTopic = topic.trim() === "" ? null : topic.trim();
    const result = await sendJson("PUT", "/api/me/notifications", { email, slack, push, ntfyTopic, events });
    setBusy(false);
    if (!result.ok) return setSaid(result.message);
    setSaid("Saved.");
    router.refresh();
  }

  const toggle = (e: NotifyEvent) =>
    setEvents((now) =>
      now.includes(e) ? now.filter((x) => x !== e) : NOTIFY_EVENTS.filter((x) => x === e || now.includes(x)),
    );

  return (
    <form
      className="flex flex-col gap-2 text-sm"
      data-testid="notification-choices"
      onSubmit={(ev) => {
        ev.preventDefault();
        void save();
      }}
    >
      {!available && (
        <p className="text-zinc-600 dark:text-zinc-400" data-testid="email-unavailable">
          This server sends no email yet: its operator has not set PLANGATE_SMTP_URL. Your choices are kept for when it
          does.
        </p>
      )}
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={email} onChange={(e) => setEmail(e.target.checked)} data-testid="email-on" />
        Email me
      </label>
      {slackChannel.available && (
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={slack} onChange={(e) => setSlack(e.target.checked)} data-testid="slack-on" />
          {slackChannel.linked
            ? "Slack (your linked account)"
            : "Slack, once linked: press a Plangate button in Slack and follow its link"}
        </label>
      )}
      {pushChannel.available && (
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={push} onChange={(e) => setPush(e.target.checked)} data-testid="push-on" />
          Push to my devices ({pushChannel.devices.length} turned on)
        </label>
      )}
      {ntfyChannel.available && (
        <label className="flex flex-wrap items-center gap-2">
          ntfy topic on {ntfyChannel.server}
          <input
            type="text"
            value={topic}
            onChange={(e) => setTopic(e.target.value)}
            placeholder="none"
            pattern="[A-Za-z0-9_\-]{1,64}"
            className="rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700"
            data-testid="ntfy-topic"
          />
        </label>
      )}
      <fieldset className="flex flex-col gap-1 pl-6">
        <legend className="sr-only">What they carry</legend>
        {NOTIFY_EVENTS.map((e) => (
          <label key={e} className="flex items-center gap-2">
            <input type="checkbox" checked={events.includes(e)} onChange={() => toggle(e)} data-testid={`event-${e}`} />
            {LABELS[e]}
          </label>
        ))}
      </fieldset>
      <div className="flex items-center gap-2">
        <button
          type="submit"
          disabled={busy}
          className="rounded border border-zinc-400 px-3 py-1 dark:border-zinc-600"
          data-testid="save-notifications"
        >
          Save
        </button>
        {said ? (
          <span role="status" data-testid="notifications-said">
            {said}
          </span>
        ) : null}
      </div>
    </form>
  );
}
