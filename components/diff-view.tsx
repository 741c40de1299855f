import type { ReactNode } from "react";

/** A note shown right under the first diff line whose text (without its +/-/space) equals `line`. */
export type DiffNote = { line: string; content: ReactNode };

/**
 * A unified diff as text lines, coloured by sign; never interpreted as markup. Focusable, so it scrolls by
 * keyboard too. Notes (earlier review comments) sit beside the lines they were made on.
 */
export function DiffView({
  diff,
  label,
  testId = "diff",
  notes = [],
}: {
  diff: string;
  label: string;
  testId?: string;
  notes?: DiffNote[];
}) {
  const lines = diff.split("\n");
  const placed = new Set<number>();
  const noteAt = (text: string) =>
    notes.flatMap((n, i) => {
      if (placed.has(i) || n.line !== text) return [];
      placed.add(i);
      return [
        <span key={`note-${i}`} className="block whitespace-normal py-1 font-sans">
          {n.content}
        </span>,
      ];
    });
  return (
    <pre
      data-testid={testId}
      aria-label={label}
      tabIndex={0}
      className="max-h-96 overflow-auto rounded bg-zinc-100 p-2 text-xs leading-5 dark:bg-zinc-900"
    >
      {lines.map((line, i) => {
        const tone =
          line.startsWith("+") && !line.startsWith("+++")
            ? "diff-add"
            : line.startsWith("-") && !line.startsWith("---")
              ? "diff-del"
              : line.startsWith("@@")
                ? "diff-hunk"
                : "";
        const body = /^[-+ ]/.test(line) && !line.startsWith("---") && !line.startsWith("+++") ? line.slice(1) : null;
        return (
          <span key={i} className="block">
            <span className={`block whitespace-pre ${tone}`}>{line || " "}</span>
            {body !== null && !line.startsWith("+") ? noteAt(body) : null}
          </span>
        );
      })}
    </pre>
  );
}
