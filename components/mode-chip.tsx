"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import type { PermissionMode } from "@/lib/permission/modes";
import { MODE_LABEL as LABEL, describeOutcome, requestMode, sendText } from "./mode-actions";
import { Icon } from "./icons";

/** choosable: the modes the server allows now that this person may choose (lib/auth/rules/mode-rights); no others are offered. */
type Props = {
  sessionId: string;
  mode: PermissionMode;
  pending: PermissionMode | null;
  choosable: readonly PermissionMode[];
};

// Modes that answer asks without a person say so before they are chosen.
const WARN: Partial<Record<PermissionMode, string>> = {
  auto: "answers every ask without you while the auto gate is open (control files still ask)",
  bypassPermissions: "nothing asks, control files included; only the sandbox still holds",
};

/**
 * The effective mode (and a change waiting for the step boundary); "Plan ×" leaves plan mode like `/plan off`.
 * A click on the chip opens the mode menu and never changes the mode by itself (a stray click must not widen
 * what the agent may do); Shift+Tab in the composer cycles Ask before edits → Auto-accept edits → Plan. Auto
 * and bypass are only in the menu, each with its warning. A member is offered plan and default only: a mode that
 * answers asks is a reviewer's to choose.
 */
export function ModeChip({ sessionId, mode, pending, choosable }: Props) {
  const router = useRouter();
  const [note, setNote] = useState<string | null>(null);
  const act = async (run: () => Promise<{ ok: boolean; message?: string; text?: string }>) => {
    const r = await run();
    setNote(r.ok ? (r.text ?? null) : (r.message ?? "Failed"));
    router.refresh();
  };
  const leavePlan = () =>
    act(async () => {
      const r = await sendText(sessionId, "/plan off");
      return r.ok
        ? { ok: true, text: r.data.command ? describeOutcome("/plan off", r.data.command.outcome) : undefined }
        : r;
    });
  const choose = (target: PermissionMode) =>
    act(async () => {
      const r = await requestMode(sessionId, target);
      return r.ok ? { ok: true, text: describeOutcome(`Mode ${LABEL[target]}`, r.data.outcome) } : r;
    });
  const menu = useRef<HTMLDetailsElement>(null);
  const openMenu = () => {
    if (!menu.current) return;
    menu.current.open = true;
    menu.current.querySelector<HTMLButtonElement>("[data-testid^='mode-option-']")?.focus();
  };
  return (
    <span className="flex items-center gap-2 text-xs">
      {mode === "plan" ? (
        <span
          data-testid="mode-chip"
          data-mode={mode}
          className="inline-flex items-center rounded-full border border-violet-400 bg-violet-50 text-violet-900 dark:bg-violet-950 dark:text-violet-100"
        >
          <span className="py-0.5 pl-2 pr-1 font-medium">Plan</span>
          <button
            type="button"
            data-testid="plan-chip-exit"
            aria-label="Leave plan mode"
            title="Leave plan mode (/plan off)"
            onClick={() => void leavePlan()}
            className="rounded-full px-1.5 py-0.5 hover:bg-violet-200 dark:hover:bg-violet-800"
          >
            ×
          </button>
        </span>
      ) : (
        <button
          type="button"
          data-testid="mode-chip"
          data-mode={mode}
          title="Choose a mode (Shift+Tab in the message box moves to the next)"
          aria-haspopup="menu"
          onClick={openMenu}
          className="rounded-full border px-2 py-0.5"
        >
          {LABEL[mode]}
        </button>
      )}
      <details
        ref={menu}
        data-testid="mode-menu"
        className="relative"
        onKeyDown={(e) => {
          // Esc closes the menu (and decides nothing).
          if (e.key === "Escape") e.currentTarget.open = false;
        }}
      >
        <summary
          className="min-h-11 cursor-pointer list-none rounded-full border px-2 py-2 sm:min-h-0 sm:py-0.5"
          aria-label="Choose a mode"
        >
          <Icon name="down" />
        </summary>
        <ul className="absolute z-10 mt-1 w-72 rounded border bg-white p-1 shadow dark:bg-zinc-900">
          {choosable.map((m) => (
            <li key={m}>
              <button
                type="button"
                data-testid={`mode-option-${m}`}
                onClick={() => {
                  if (menu.current) menu.current.open = false;
                  void choose(m);
                }}
                className="w-full rounded px-2 py-2 text-left hover:bg-zinc-100 dark:hover:bg-zinc-800"
              >
                <span className="font-medium">{LABEL[m]}</span>
                {WARN[m] ? (
                  <span className="block text-rose-700 dark:text-rose-300">
                    <Icon name="warn" /> {WARN[m]}
                  </span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      </details>
      {pending ? (
        <span data-testid="mode-pending" data-mode={pending} className="rounded-full border border-dashed px-2 py-0.5">
          → {LABEL[pending]} at the next step
        </span>
      ) : null}
      <span data-testid="mode-note" role="status" className="text-zinc-600 dark:text-zinc-400">
        {note}
      </span>
    </span>
  );
}
