"use client";

import { useEffect, useRef } from "react";
import { notifyIfHidden } from "./notify";

/**
 * The mailbox page's notifications: it checks the pending plan requests every few seconds, also while the tab
 * is hidden, and a new one notifies (once the person allowed notifications).
 */
export function MailboxWatch({
  teamId,
  pending,
  everyMs = 3000,
}: {
  teamId: string;
  pending: number;
  everyMs?: number;
}) {
  const known = useRef(pending);
  useEffect(() => {
    const timer = setInterval(() => {
      void fetch(`/api/teams/${teamId}/mailbox?status=pending&type=plan_approval_request`)
        .then((r) => (r.ok ? (r.json() as Promise<{ messages: unknown[] }>) : null))
        .then((body) => {
          if (!body) return;
          if (body.messages.length > known.current)
            notifyIfHidden("A teammate's plan is waiting for your approval", "Team mailbox");
          known.current = body.messages.length;
        })
        .catch(() => undefined);
    }, everyMs);
    return () => clearInterval(timer);
  }, [teamId, everyMs]);
  return null;
}
