"use client";

import { useEffect, useRef } from "react";
import { onChanges } from "./changes-source";
import { notifyIfHidden } from "./notify";

/**
 * The mailbox page's notifications: when a session changes (the tab's change stream, also while it is hidden) it
 * checks the pending plan requests, and a new one notifies (once the person allowed notifications). It reads a page
 * of 200, as the team page counts them: past 200 waiting, the count stays and no more notices come.
 */
export function MailboxWatch({ teamId, pending }: { teamId: string; pending: number }) {
  const known = useRef(pending);
  useEffect(() => {
    return onChanges((changes) => {
      // A webhook delivery made or attempted changes no plan request.
      if (changes !== "reconnected" && changes.sessions.length === 0) return;
      void fetch(`/api/teams/${teamId}/mailbox?status=pending&type=plan_approval_request&limit=200`)
        .then((r) => (r.ok ? (r.json() as Promise<{ messages: unknown[] }>) : null))
        .then((body) => {
          if (!body) return;
          if (body.messages.length > known.current)
            notifyIfHidden("A teammate's plan is waiting for your approval", "Team mailbox");
          known.current = body.messages.length;
        })
        .catch(() => undefined);
    });
  }, [teamId]);
  return null;
}
