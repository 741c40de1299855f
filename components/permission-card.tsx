"use client";

import { useRouter } from "next/navigation";
import { Fragment, useEffect, useRef, useState } from "react";
import { CodeWords } from "./code-words";
import { DiffView } from "./diff-view";
import { useOneShot } from "./use-one-shot";
import { KEYS } from "@/lib/ui/views/shortcuts";

export type PermissionAskView = {
  id: string;
  tool: string;
  permission: string;
  patterns: string[];
  always: string[];
  metadata: Record<string, unknown>;
};

type Option = { rule: string; exact: boolean; words: string };
type Choice = { pattern: string; options: Option[] };

const SCOPES = { session: "this session", workspace: "every session in this workspace" } as const;

const VERBS: Record<string, string> = {
  bash: "Run",
  network: "Network access for",
  edit: "Write",
  verify: "Run the verify command",
};

/** The rules "Allow always" may save, narrowest first (older requests carry only their default rules). */
function choicesOf(ask: PermissionAskView): Choice[] {
  const stored = ask.metadata.alwaysOptions;
  if (Array.isArray(stored)) return stored as Choice[];
  return ask.always.map((rule, i) => ({
    pattern: ask.patterns[i] ?? rule,
    options: [{ rule, exact: false, words: `\`${rule}\`` }],
  }));
}

function heading(ask: PermissionAskView): string {
  if (ask.permission === "network") return "Allow this command to use the network?";
  if (ask.tool === "verify") return "Run the workspace's verify command?";
  return `Allow ${ask.tool}?`;
}

/** What the sandbox lets an allowed command do, in words. */
function reach(ask: PermissionAskView): string | null {
  if (ask.permission !== "bash" && ask.permission !== "network" && ask.tool !== "verify") return null;
  const network =
    ask.permission === "network" || ask.metadata.network === true
      ? "with network (never this machine's own services)"
      : "without network";
  return `Runs in the sandbox: may change only the workspace, ${network}; the rest of this machine is not visible to it.`;
}

/** A pending ask: what the tool wants to do, and Allow once / Allow always (the exact rule, narrowable) / Reject. */
export function PermissionCard({ ask }: { ask: PermissionAskView }) {
  const router = useRouter();
  const { send, busy, error } = useOneShot(() => router.refresh());
  const [scope, setScope] = useState<keyof typeof SCOPES>("session");
  const [message, setMessage] = useState("");
  const choices = choicesOf(ask);
  const [picked, setPicked] = useState<string[]>(() =>
    choices.map((c) => c.options[c.options.length - 1]?.rule ?? c.pattern),
  );
  const url = `/api/permissions/${ask.id}/reply`;
  const diff = typeof ask.metadata.diff === "string" ? ask.metadata.diff : null;
  const command = typeof ask.metadata.command === "string" ? ask.metadata.command : null;
  const control = ask.metadata.control === true;
  // A write under a path a review policy holds (issue 41): only its reviewers answer, or an owner with a reason.
  const held = Array.isArray(ask.metadata.heldFor)
    ? (ask.metadata.heldFor as { pattern: string; reviewers: string[] }[])
    : [];
  const heldWho = [...new Set(held.flatMap((r) => r.reviewers))].join(" or ") || "nobody named";
  const [reason, setReason] = useState("");
  const headingId = `permission-${ask.id}`;
  const words = (i: number) => choices[i]?.options.find((o) => o.rule === picked[i])?.words ?? `\`${picked[i]}\``;
  const verb = VERBS[ask.permission] ?? `Allow ${ask.permission} for`;
  const narrowable = choices.some((c) => c.options.length > 1);
  const card = useRef<HTMLElement>(null);
  const once = () =>
    void send(url, { reply: "once", ...(held.length && reason.trim() ? { reason: reason.trim() } : {}) });
  const always = () => void send(url, { reply: "always", scope, rules: picked });
  const reject = () => void send(url, { reply: "reject", ...(message.trim() ? { message: message.trim() } : {}) });

  // A new ask scrolls into view and takes the focus; o / a / r answer it while the focus is on the card.
  useEffect(() => {
    card.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
    card.current?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = document.activeElement;
      if (e.ctrlKey || e.metaKey || e.altKey || !card.current?.contains(target)) return;
      if (
        target instanceof HTMLTextAreaElement ||
        target instanceof HTMLInputElement ||
        target instanceof HTMLSelectElement
      )
        return;
      if (e.key === KEYS.allowOnce) once();
      else if (e.key === KEYS.allowAlways && !control) always();
      else if (e.key === KEYS.reject) reject();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
  return (
    <section
      ref={card}
      tabIndex={-1}
      data-testid="permission-card"
      data-request-id={ask.id}
      aria-labelledby={headingId}
      className="rounded-lg border border-sky-300 bg-white p-4 shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-sky-800 dark:bg-zinc-900"
    >
      <h2 id={headingId} className="font-semibold">
        {heading(ask)}
      </h2>
      <p className="mt-1 text-sm">
        Permission <span className="font-mono">{ask.permission}</span> for{" "}
        {ask.patterns.map((p) => (
          <code key={p} data-testid="permission-pattern" className="mr-1 rounded bg-zinc-100 px-1 dark:bg-zinc-800">
            {p}
          </code>
        ))}
      </p>
      {command ? (
        <pre
          data-testid="permission-command"
          className="mt-2 overflow-x-auto whitespace-pre-wrap break-words rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800"
        >
          $ {command}
        </pre>
      ) : null}
      {reach(ask) ? (
        <p data-testid="permission-reach" className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {reach(ask)}
        </p>
      ) : null}
      {held.length ? (
        <div
          data-testid="permission-held"
          role="note"
          className="mt-2 rounded border border-amber-300 p-2 text-xs dark:border-amber-700"
        >
          <p>
            {[...new Set(held.map((r) => r.pattern))].join(", ")} is held by the review policy for{" "}
            <span data-testid="permission-held-for">{heldWho}</span>, who did not approve the plan: only they may allow
            this, once. An owner may override it with a reason, recorded in the audit log.
          </p>
          <label htmlFor={`${headingId}-reason`} className="mt-1 block">
            Owner&apos;s reason to override (only if you are not one of them)
          </label>
          <input
            id={`${headingId}-reason`}
            data-testid="permission-reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={2000}
            className="mt-1 w-full rounded border border-zinc-300 p-1 dark:border-zinc-700 dark:bg-zinc-950"
          />
        </div>
      ) : control ? (
        <p
          data-testid="permission-control"
          role="note"
          className="mt-2 rounded border border-amber-300 p-2 text-xs dark:border-amber-700"
        >
          This is a control file (Plangate, git, agent or editor settings, a shell start-up file): writing it can change
          what the agent may do or what runs later. It can only be allowed once.
        </p>
      ) : null}
      {ask.metadata.unchanged === true ? (
        <p data-testid="permission-unchanged" className="mt-2 text-sm">
          This write changes nothing: the file already has exactly this content.
        </p>
      ) : null}
      {diff ? (
        <div className="mt-2">
          <DiffView diff={diff} label="Proposed change" testId="permission-diff" />
        </div>
      ) : null}
      <label htmlFor={`${headingId}-message`} className="mt-3 block text-sm">
        Message for the agent if you reject (optional)
      </label>
      <textarea
        id={`${headingId}-message`}
        data-testid="permission-message"
        rows={2}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        className="mt-1 w-full rounded border border-zinc-300 p-2 text-sm dark:border-zinc-700 dark:bg-zinc-950"
      />
      {error ? (
        <p role="alert" data-testid="permission-error" className="mt-2 text-sm text-rose-700 dark:text-rose-300">
          {error}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <button
          type="button"
          data-testid="allow-once"
          disabled={busy}
          onClick={once}
          aria-keyshortcuts="o"
          className="min-h-11 rounded bg-sky-800 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50"
        >
          Allow <u>o</u>nce
        </button>
        {control ? null : (
          <>
            <button
              type="button"
              data-testid="allow-always"
              disabled={busy}
              onClick={always}
              aria-keyshortcuts="a"
              className="min-h-11 rounded border border-sky-800 px-3 py-1.5 text-sm disabled:opacity-50"
            >
              <u>A</u>llow always
            </button>
            <label htmlFor={`${headingId}-scope`} className="sr-only">
              Allow always for
            </label>
            <select
              id={`${headingId}-scope`}
              data-testid="always-scope"
              value={scope}
              onChange={(e) => setScope(e.target.value as keyof typeof SCOPES)}
              className="rounded border px-2 py-1.5 text-sm dark:bg-zinc-950"
            >
              <option value="session">in this session</option>
              <option value="workspace">in this workspace</option>
            </select>
          </>
        )}
        <button
          type="button"
          data-testid="reject"
          disabled={busy}
          onClick={reject}
          aria-keyshortcuts="r"
          className="min-h-11 rounded border border-rose-700 px-3 py-1.5 text-sm text-rose-800 disabled:opacity-50 dark:text-rose-300"
        >
          <u>R</u>eject
        </button>
      </div>
      {control ? null : (
        <>
          {narrowable ? (
            <fieldset data-testid="always-choices" className="mt-2 text-xs">
              <legend className="text-zinc-600 dark:text-zinc-400">Allow always saves, for each command:</legend>
              {choices.map((c, i) =>
                c.options.length > 1 ? (
                  <div
                    key={c.pattern}
                    role="radiogroup"
                    aria-label={`Rule for ${c.pattern}`}
                    className="mt-1 flex flex-wrap gap-3"
                  >
                    {c.options.map((o) => (
                      <label key={o.rule} className="flex items-center gap-1">
                        <input
                          type="radio"
                          name={`${headingId}-rule-${i}`}
                          data-testid="always-option"
                          value={o.rule}
                          checked={picked[i] === o.rule}
                          onChange={() => setPicked((p) => p.map((r, j) => (j === i ? o.rule : r)))}
                        />
                        <CodeWords text={o.words} />
                      </label>
                    ))}
                  </div>
                ) : null,
              )}
            </fieldset>
          ) : null}
          <p data-testid="always-saves" className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
            Allow always saves:{" "}
            {choices.map((_, i) => (
              <Fragment key={i}>
                {i > 0 ? "; " : ""}
                {verb} <CodeWords text={words(i)} />
              </Fragment>
            ))}
            , for {SCOPES[scope]}.
          </p>
        </>
      )}
    </section>
  );
}
