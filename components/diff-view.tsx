/** A unified diff as text lines, coloured by sign; never interpreted as markup. Focusable, so it scrolls by keyboard too. */
export function DiffView({ diff, label, testId = "diff" }: { diff: string; label: string; testId?: string }) {
  const lines = diff.split("\n");
  return (
    <pre data-testid={testId} aria-label={label} tabIndex={0} className="max-h-96 overflow-auto rounded bg-zinc-100 p-2 text-xs leading-5 dark:bg-zinc-900">
      {lines.map((line, i) => {
        const tone = line.startsWith("+") && !line.startsWith("+++") ? "diff-add" : line.startsWith("-") && !line.startsWith("---") ? "diff-del" : line.startsWith("@@") ? "diff-hunk" : "";
        return (
          <span key={i} className={`block whitespace-pre ${tone}`}>
            {line || " "}
          </span>
        );
      })}
    </pre>
  );
}
