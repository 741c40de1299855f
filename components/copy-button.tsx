"use client";

import { useState } from "react";

/** Copies `text` to the clipboard and says so; where the browser refuses, says to copy it by hand. */
export function CopyButton({ text, testId, label = "Copy" }: { text: string; testId: string; label?: string }) {
  const [said, setSaid] = useState<string | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        className="inline-flex min-h-6 min-w-6 items-center rounded border border-zinc-300 px-2 text-sm dark:border-zinc-700"
        data-testid={testId}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setSaid("Copied");
          } catch {
            setSaid("The browser refused: select the link and copy it");
          }
        }}
      >
        {label}
      </button>
      <span role="status" className="text-xs" data-testid={`${testId}-status`}>
        {said}
      </span>
    </span>
  );
}
