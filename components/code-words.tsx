import { Fragment } from "react";

/**
 * Words in which `backticked` parts name code (a rule, a path, a command): those parts are shown as code, so the
 * reader never sees the backticks themselves ("Write `src/todo.ts`" reads Write src/todo.ts, the path in code).
 */
export function CodeWords({ text }: { text: string }) {
  const parts = text.split("`");
  // An unpaired backtick is text, not the start of code that never ends.
  if (parts.length % 2 === 0) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} data-testid="code-words" className="rounded bg-zinc-100 px-0.5 dark:bg-zinc-800">
            {part}
          </code>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
