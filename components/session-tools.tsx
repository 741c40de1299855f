"use client";

import Link from "next/link";
import { type ReactNode, useRef, useState } from "react";
import { DeleteSession, ExportLinks } from "./session-actions";
import { Icon } from "./icons";
import { StartTeamButton } from "./start-team-button";

/** The timeline listens for this: the Go to box lives here, the events it loads and replays live there. */
export const GO_TO_EVENT = "plangate:go-to-event";

/**
 * Everything about the session that is not the work itself, in one menu beside its title: export, webhooks,
 * workspace settings, leading a team, the plan file, going to an event, the history; delete last, apart from
 * export and asking once more. The page itself then starts with the timeline, the card and the composer.
 */
export function SessionTools({
  sessionId,
  title,
  workspace,
  planPath,
  lastSeq,
  leadTeam,
  children,
}: {
  sessionId: string;
  title: string;
  workspace: string;
  planPath: string | null;
  lastSeq: number;
  /** Offered when the session may start a team (not an outside agent's, not a teammate, not in one). */
  leadTeam: boolean;
  /** The history panel (rendered on the server). */
  children: ReactNode;
}) {
  const menu = useRef<HTMLDetailsElement>(null);
  const close = () => {
    if (menu.current) menu.current.open = false;
    menu.current?.querySelector("summary")?.focus();
  };
  return (
    <details
      ref={menu}
      data-testid="session-tools"
      className="relative"
      onKeyDown={(e) => {
        if (e.key === "Escape" && menu.current?.open) {
          e.stopPropagation();
          close();
        }
      }}
    >
      <summary
        data-testid="session-tools-toggle"
        className="inline-flex min-h-11 cursor-pointer list-none items-center gap-1 rounded border px-3 text-sm sm:min-h-8"
      >
        Session tools <Icon name="down" />
      </summary>
      <div
        data-testid="session-tools-panel"
        className="absolute right-0 z-30 mt-1 flex max-h-[75vh] w-[min(34rem,calc(100vw-2rem))] flex-col gap-3 overflow-y-auto rounded-lg border border-zinc-300 bg-white p-3 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
      >
        <section aria-label="Export and links" className="flex flex-col gap-2">
          <ExportLinks sessionId={sessionId} />
          <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs">
            <Link href={`/webhooks?sessionId=${sessionId}`} className="underline" data-testid="webhooks-link">
              Webhook deliveries
            </Link>
            <Link
              href={`/workspace?path=${encodeURIComponent(workspace)}`}
              className="underline"
              data-testid="workspace-settings-link"
            >
              Workspace settings
            </Link>
          </p>
          {planPath ? (
            <p data-testid="plan-path" className="text-xs break-all">
              Plan file: <code>{planPath}</code>
            </p>
          ) : null}
          {leadTeam ? (
            <p className="text-xs">
              <StartTeamButton sessionId={sessionId} />{" "}
              <span className="text-zinc-600 dark:text-zinc-400">this session then plans work for teammates</span>
            </p>
          ) : null}
        </section>
        <JumpToEvent last={lastSeq} onGo={close} />
        {children}
        <section aria-label="Delete" className="mt-2 border-t border-zinc-200 pt-3 dark:border-zinc-800">
          <DeleteSession sessionId={sessionId} title={title} />
        </section>
      </div>
    </details>
  );
}

/** "Go to event #": the timeline loads the pages up to it, shows its state and scrolls to its line. */
function JumpToEvent({ last, onGo }: { last: number; onGo: () => void }) {
  const [jump, setJump] = useState("");
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="flex flex-wrap items-center gap-2 text-xs"
      onSubmit={(e) => {
        e.preventDefault();
        const seq = Number(jump.trim());
        if (!/^\d+$/.test(jump.trim()) || seq < 1 || seq > last) {
          setError(`Give an event number from 1 to ${last}.`);
          return;
        }
        setError(null);
        window.dispatchEvent(new CustomEvent(GO_TO_EVENT, { detail: seq }));
        onGo();
      }}
    >
      <label htmlFor="jump-to">Go to event #</label>
      <input
        id="jump-to"
        data-testid="jump-to"
        inputMode="numeric"
        value={jump}
        aria-invalid={error !== null}
        aria-describedby={error ? "jump-error" : undefined}
        onChange={(e) => setJump(e.target.value)}
        className="w-20 rounded border border-zinc-300 px-1 py-0.5 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <button type="submit" className="min-h-6 rounded border px-2 py-0.5">
        Go
      </button>
      {error ? (
        <span id="jump-error" data-testid="jump-error" role="alert" className="text-rose-700 dark:text-rose-300">
          {error}
        </span>
      ) : null}
    </form>
  );
}
