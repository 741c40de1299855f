"use client";

import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

/** Room kept between an open menu and the window's edges, in CSS pixels. */
const EDGE = 8;

/** Where an open menu sits: above or below its button, shifted left to stay inside the window, and its height cap. */
type Place = { up: boolean; dx: number; maxHeight: number };

/** Opens downward when the menu fits there, else to the side with more room; never past the window's edges. */
export function placeMenu(
  button: { left: number; top: number; bottom: number },
  menu: { width: number; height: number },
  view: { width: number; height: number },
): Place {
  const below = view.height - button.bottom - EDGE;
  const above = button.top - EDGE;
  const up = menu.height > below && above > below;
  const dx = Math.max(EDGE - button.left, Math.min(0, view.width - EDGE - (button.left + menu.width)));
  return { up, dx, maxHeight: Math.max(up ? above : below, 0) };
}

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
 * A button that opens a short menu where it fits: below it, or above it near the bottom edge (the card's action
 * row sits at the bottom of the screen), measured when it opens. Esc or a click elsewhere closes it; arrow keys
 * move between its items.
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
  const list = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<Place | null>(null);
  const setOpen = useCallback((next: boolean) => setOpenState(next), []);
  // Measured before the browser paints, so an open menu is never drawn off the screen first.
  useLayoutEffect(() => {
    const button = root.current?.getBoundingClientRect();
    const menu = list.current;
    if (!open || !button || !menu) {
      setPlace(null);
      return;
    }
    setPlace(
      placeMenu(
        button,
        { width: menu.offsetWidth, height: menu.scrollHeight + 2 },
        { width: window.innerWidth, height: window.innerHeight },
      ),
    );
  }, [open]);
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
    // Not scrolled to: the menu is placed where it fits, and focusing must not move the page under it.
    root.current?.querySelector<HTMLButtonElement>(item)?.focus({ preventScroll: true });
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
          ref={list}
          role="menu"
          data-testid={`${testId}-menu`}
          data-placement={place ? (place.up ? "up" : "down") : undefined}
          style={
            place
              ? { left: place.dx, maxHeight: place.maxHeight, ...(place.up ? { bottom: "100%" } : { top: "100%" }) }
              : { left: 0, top: "100%" }
          }
          className={`absolute z-20 flex min-w-56 flex-col overflow-y-auto rounded border border-zinc-300 bg-white p-1 shadow-lg ${place?.up ? "mb-1" : "mt-1"} dark:border-zinc-700 dark:bg-zinc-900`}
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
