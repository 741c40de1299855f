"use client";

import { useEffect, useRef, useState } from "react";
import { KEYS, SHORTCUTS } from "@/lib/ui/views/shortcuts";

const typing = (el: Element | null) =>
  el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement || el instanceof HTMLSelectElement;

/** `?` (outside a text field) opens the list of every keyboard shortcut, on every page, in the window's middle. */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === KEYS.help && !typing(document.activeElement)) {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  useEffect(() => {
    if (open) dialog.current?.showModal();
    else dialog.current?.close();
  }, [open]);
  return (
    // The reset stylesheet zeroes every margin: m-auto gives the modal dialog back its centring.
    <dialog
      ref={dialog}
      data-testid="shortcuts-help"
      aria-labelledby="shortcuts-title"
      onClose={() => setOpen(false)}
      className="m-auto max-h-[90vh] w-[min(32rem,calc(100vw-2rem))] overflow-y-auto rounded-lg p-4 backdrop:bg-black/40 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 id="shortcuts-title" className="font-semibold">
        Keyboard shortcuts
      </h2>
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">Keys act where the focus is.</p>
      <table className="mt-2 text-sm">
        <tbody>
          {SHORTCUTS.map(({ keys, what }) => (
            <tr key={keys} data-testid="shortcut-row">
              <th scope="row" className="pr-3 text-left align-top font-mono font-normal whitespace-nowrap">
                {keys}
              </th>
              <td className="pb-1">{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => setOpen(false)} className="mt-3 min-h-11 rounded border px-3 text-sm">
        Close
      </button>
    </dialog>
  );
}
