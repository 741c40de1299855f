"use client";

import { useEffect, useRef, useState } from "react";

const SHORTCUTS: [string, string][] = [
  ["?", "Show this list"],
  ["1", "Plan review: approve, auto-accept edits"],
  ["2", "Plan review: approve, review each edit"],
  ["3", "Plan review: keep planning (open the feedback box)"],
  [
    "Ctrl/Cmd+Enter",
    "In the feedback box: send the feedback. In the plan editor or on the card: approve (default choice)",
  ],
  ["Esc", "Close what is open (feedback box, editor, menu, this list). Never decides"],
  ["o / a / r", "Permission card: allow once / allow always / reject"],
  ["Enter", "Message box: send (Shift+Enter: new line)"],
  ["Shift+Tab", "Message box: next mode (Ask before edits → Auto-accept edits → Plan)"],
  ["/", "Message box: commands (/plan, /plan off, /compact, /verify)"],
];

const typing = (el: Element | null) =>
  el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement || el instanceof HTMLSelectElement;

/** `?` (outside a text field) opens the list of every keyboard shortcut, on every page. */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "?" && !typing(document.activeElement)) {
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
    <dialog
      ref={dialog}
      data-testid="shortcuts-help"
      aria-labelledby="shortcuts-title"
      onClose={() => setOpen(false)}
      className="max-w-lg rounded-lg p-4 backdrop:bg-black/40 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 id="shortcuts-title" className="font-semibold">
        Keyboard shortcuts
      </h2>
      <table className="mt-2 text-sm">
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys}>
              <th scope="row" className="pr-3 text-left align-top font-mono font-normal">
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
