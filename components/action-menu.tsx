"use client";

import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";

/** The menu's least width (min-w-56), in CSS pixels. */
const MENU_WIDTH = 224;

export type MenuItem = {
  label: ReactNode;
  testId: string;
  onSelect: () => void;
  disabled?: boolean;
  /** The key that picks it in the card, shown beside it. */
  shortcut?: string;
  attrs?: Record<string, string | boolean>;
};

/**
 * A button that opens a short menu above or below it (the card's action row sits at the bottom of the screen on
 * a phone, so it opens upward there). Esc or a click elsewhere closes it; arrow keys move between its items.
 */
export function ActionMenu({
  label,
  testId,
  items,
  disabled,
  className,
  focusRequest,
  ariaLabel,
}: {
  label: ReactNode;
  ariaLabel?: string;
  testId: string;
  items: MenuItem[];
  disabled?: boolean;
  className: string;
  /** Opens the menu with this item focused (a key that picks a choice needing a second stroke, Enter). */
  focusRequest?: { testId: string; at: number } | null;
}) {
  const [open, setOpenState] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  // The menu lines up with the button's left edge, or its right one when it would run off the screen.
  const [alignRight, setAlignRight] = useState(false);
  const setOpen = useCallback((next: boolean) => {
    const r = root.current?.getBoundingClientRect();
    if (next && r) setAlignRight(r.left + MENU_WIDTH > window.innerWidth);
    setOpenState(next);
  }, []);
  // The item a key asked for: focused when the menu opens (or at once, when it is open already).
  const wanted = useRef<string | null>(null);
  useEffect(() => {
    if (!focusRequest) return;
    wanted.current = focusRequest.testId;
    setOpen(true);
    root.current?.querySelector<HTMLButtonElement>(`[data-testid="${focusRequest.testId}"]`)?.focus();
  }, [focusRequest, setOpen]);
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", away);
    const item = wanted.current ? `[data-testid="${wanted.current}"]` : '[role="menuitem"]:not(:disabled)';
    root.current?.querySelector<HTMLButtonElement>(item)?.focus();
    wanted.current = null;
    return () => document.removeEventListener("pointerdown", away);
  }, [open, setOpen]);
  const keys = (e: React.KeyboardEvent) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      setOpen(false);
      root.current?.querySelector<HTMLButtonElement>("[aria-haspopup]")?.focus();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const all = [...(root.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
      const at = all.indexOf(document.activeElement as HTMLButtonElement);
      all[(at + (e.key === "ArrowDown" ? 1 : all.length - 1)) % all.length]?.focus();
    }
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the keys belong to the menu's items, handled once here.
    <div ref={root} className="relative" onKeyDown={keys}>
      <button
        type="button"
        data-testid={testId}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={ariaLabel}
        disabled={disabled}
        onClick={() => setOpen(!open)}
        className={className}
      >
        {label}
      </button>
      {open ? (
        <div
          role="menu"
          className={`absolute bottom-full ${alignRight ? "right-0" : "left-0"} z-20 mb-1 flex min-w-56 flex-col rounded border border-zinc-300 bg-white p-1 shadow-lg sm:top-full sm:bottom-auto sm:mt-1 sm:mb-0 dark:border-zinc-700 dark:bg-zinc-900`}
        >
          {items.map((item) => (
            <button
              key={item.testId}
              type="button"
              role="menuitem"
              data-testid={item.testId}
              disabled={item.disabled}
              aria-keyshortcuts={item.shortcut}
              {...item.attrs}
              onClick={() => {
                setOpen(false);
                item.onSelect();
              }}
              className="min-h-11 rounded px-3 py-2 text-left text-sm hover:bg-zinc-100 focus:bg-zinc-100 disabled:opacity-50 dark:hover:bg-zinc-800 dark:focus:bg-zinc-800"
            >
              {item.shortcut ? (
                <kbd className="mr-2 rounded border border-current px-1 text-xs">{item.shortcut}</kbd>
              ) : null}
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
