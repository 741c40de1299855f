import type { WordDiffRow } from "@/lib/plan/views/word-diff";

const SIGN = { same: " ", add: "+", del: "-" } as const;
const TONE = { same: "", add: "diff-add", del: "diff-del" } as const;

/**
 * What changed between two versions of a plan, line by line, with the changed words of a changed line marked.
 * Text only: never interpreted as markup. Focusable, so it scrolls by keyboard too.
 */
export function PlanVersionDiff({ rows, label }: { rows: WordDiffRow[]; label: string }) {
  return (
    <pre
      data-testid="plan-diff-lines"
      aria-label={label}
      tabIndex={0}
      className="max-h-96 overflow-auto rounded bg-zinc-100 p-2 text-xs leading-5 dark:bg-zinc-900"
    >
      {rows.map((row, i) => (
        <span key={i} data-kind={row.kind} className={`block whitespace-pre-wrap ${TONE[row.kind]}`}>
          <span aria-hidden="true">{SIGN[row.kind]}</span>
          {row.parts.map((p, j) =>
            p.mark ? (
              <mark
                key={j}
                data-testid={p.mark === "add" ? "word-added" : "word-removed"}
                className={`rounded-sm ${p.mark === "add" ? "bg-emerald-300 dark:bg-emerald-700" : "bg-rose-300 line-through dark:bg-rose-800"} text-inherit`}
              >
                {p.text}
              </mark>
            ) : (
              <span key={j}>{p.text}</span>
            ),
          )}
          {row.parts.every((p) => p.text === "") ? " " : null}
        </span>
      ))}
    </pre>
  );
}
