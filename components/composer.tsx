"use client";

import { useRouter } from "next/navigation";
import { useState, type KeyboardEvent } from "react";
import { nextModeInCycle, type PermissionMode } from "@/lib/permission/modes";
import { MODE_LABEL, describeOutcome, requestMode, sendText } from "./mode-actions";
import { Elapsed } from "./elapsed";
import { postJson } from "./post-json";
import { KEYS } from "@/lib/ui/views/shortcuts";

const COMMANDS = [
  { insert: "/plan", hint: "Plan first: the agent may only read until you approve a plan" },
  { insert: "/plan ", hint: "/plan <message>: plan mode, then send the message" },
  { insert: "/plan off", hint: "Leave plan mode" },
  { insert: "/compact", hint: "Summarise the earlier conversation to save context" },
  { insert: "/verify", hint: "Check the work against the approved plan" },
] as const;

/** Commands whose text starts with what was typed (only while the text is a single word-ish command). */
export function commandMatches(text: string) {
  if (!text.startsWith(KEYS.commands) || text.includes("\n")) return [];
  return COMMANDS.filter((c) => c.insert.startsWith(text) && c.insert !== text);
}

/** stoppedOnError: the interrupted turn ended on an error (the notice in the timeline says which); Resume reads Retry. */
type Props = {
  sessionId: string;
  mode: PermissionMode;
  /** The modes this person may choose here (lib/auth/rules/mode-rights): Shift+Tab skips the others. */
  choosable: readonly PermissionMode[];
  running: boolean;
  interrupted: boolean;
  stoppedOnError?: boolean;
  since?: string | null;
  /** The open turn is paused on a person (a permission ask): time spent there is the person's, not the agent's. */
  waitingForPerson?: boolean;
};

/**
 * Sends a message or a command (`/plan`, `/plan <message>`, `/plan off`, `/compact`, with completion);
 * Shift+Tab cycles modes; while a turn runs, a message is queued for the next step.
 */
export function Composer({
  sessionId,
  mode,
  choosable,
  running,
  interrupted,
  stoppedOnError = false,
  since,
  waitingForPerson = false,
}: Props) {
  const router = useRouter();
  const [text, setText] = useState("");
  const [status, setStatus] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const matches = dismissed ? [] : commandMatches(text);

  const send = async () => {
    if (!text.trim()) return;
    const r = await sendText(sessionId, text);
    if (!r.ok) setStatus(r.message);
    else {
      const c = r.data.command;
      setStatus(
        c
          ? describeOutcome(`/${c.name}${c.args ? ` ${c.args}` : ""}`, c.outcome)
          : r.data.turn?.queued
            ? "Queued: the agent reads it at its next step"
            : null,
      );
      setText("");
    }
    router.refresh();
  };
  const post = async (path: string, done: string) => {
    const r = await postJson(`/api/sessions/${sessionId}/${path}`);
    setStatus(r.ok ? done : r.message);
    router.refresh();
  };
  const cycle = async () => {
    const target = nextModeInCycle(mode, choosable);
    const r = await requestMode(sessionId, target);
    setStatus(r.ok ? describeOutcome(`Mode ${MODE_LABEL[target]}`, r.data.outcome) : r.message);
    router.refresh();
  };
  const complete = (i: number) => {
    const pick = matches[i];
    if (pick) setText(pick.insert);
    setActive(0);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Tab" && e.shiftKey) {
      e.preventDefault();
      void cycle();
    } else if (matches.length > 0 && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      setActive((a) => (a + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
    } else if (matches.length > 0 && e.key === "Tab") {
      e.preventDefault();
      complete(active);
    } else if (matches.length > 0 && e.key === "Escape") {
      setDismissed(true);
    } else if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <form
      data-testid="composer"
      className="relative flex flex-col gap-2"
      onSubmit={(e) => (e.preventDefault(), void send())}
    >
      <label htmlFor="message" className="text-sm font-medium">
        Message{" "}
        <span className="font-normal text-zinc-600 dark:text-zinc-400">
          (Enter sends, Shift+Enter new line, Shift+Tab changes mode, / for commands)
        </span>
      </label>
      <textarea
        id="message"
        data-testid="composer-input"
        rows={3}
        value={text}
        onChange={(e) => (setText(e.target.value), setDismissed(false), setActive(0))}
        onKeyDown={onKeyDown}
        aria-controls={matches.length > 0 ? "command-list" : undefined}
        aria-activedescendant={matches.length > 0 ? `command-${active}` : undefined}
        className="w-full rounded border border-zinc-300 bg-white p-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        placeholder={
          running
            ? "The agent is working: a message now is read at its next step"
            : mode === "plan"
              ? "In plan mode: say what to plan (the agent only reads until you approve); /plan off leaves it"
              : "Ask, or /plan to plan first"
        }
      />
      {matches.length > 0 ? (
        <ul
          id="command-list"
          role="listbox"
          aria-label="Commands"
          data-testid="command-list"
          className="rounded border border-zinc-300 bg-white text-sm shadow dark:border-zinc-700 dark:bg-zinc-900"
        >
          {matches.map((c, i) => (
            <li
              key={c.insert}
              id={`command-${i}`}
              role="option"
              aria-selected={i === active}
              data-testid="command-option"
              onMouseDown={(e) => (e.preventDefault(), complete(i))}
              className={`cursor-pointer px-2 py-1 ${i === active ? "bg-zinc-200 dark:bg-zinc-700" : ""}`}
            >
              <span className="font-mono">{c.insert.trim()}</span>{" "}
              <span className="text-xs text-zinc-600 dark:text-zinc-400">{c.hint}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span data-testid="composer-status" role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
          {status ??
            (running && waitingForPerson ? (
              <span data-testid="waiting-for-person">
                Paused: the agent waits for your answer to its permission ask.
              </span>
            ) : running ? (
              <span data-testid="working">
                The agent is working
                {since ? (
                  <>
                    … <Elapsed since={since} />
                  </>
                ) : (
                  "…"
                )}
              </span>
            ) : interrupted && stoppedOnError ? (
              <span data-testid="stopped-on-error">
                The turn stopped on an error (see the timeline); Retry runs it again.
              </span>
            ) : (
              ""
            ))}
        </span>
        <span className="flex gap-2">
          {running ? (
            <button
              type="button"
              data-testid="stop"
              onClick={() => void post("abort", "Stopped")}
              className="rounded border px-3 py-1.5 text-sm"
            >
              Stop
            </button>
          ) : null}
          {interrupted ? (
            <button
              type="button"
              data-testid="resume"
              data-retry={stoppedOnError ? "true" : undefined}
              onClick={() => void post("resume", stoppedOnError ? "Retrying" : "Resumed")}
              className="rounded border px-3 py-1.5 text-sm"
            >
              {stoppedOnError ? "Retry" : "Resume"}
            </button>
          ) : null}
          <button
            type="submit"
            data-testid="send"
            className="rounded bg-zinc-800 px-3 py-1.5 text-sm text-white dark:bg-zinc-200 dark:text-zinc-900"
          >
            {running ? "Queue" : "Send"}
          </button>
        </span>
      </div>
    </form>
  );
}
