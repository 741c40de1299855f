/**
 * The files a plan's items name, above its card. Plangate's own agent's open read-only in a new tab (what was typed
 * in the card stays where it is); an outside agent's folder may be on another machine: its files are only named.
 */
export function PlanFilesLine({
  files,
  workspace,
  outside,
}: {
  files: string[];
  workspace: string | null;
  outside: boolean;
}) {
  if (files.length === 0) return null;
  return (
    <p data-testid="plan-files" className="mb-3 text-xs text-zinc-700 dark:text-zinc-300">
      Touches {files.length === 1 ? "1 file" : `${files.length} files`}:{" "}
      {files.map((f, i) => (
        <span key={f}>
          {i > 0 ? ", " : ""}
          {outside ? (
            <code data-testid="plan-file-name">{f}</code>
          ) : (
            <a
              href={`/workspace/file?path=${encodeURIComponent(workspace ?? "")}&file=${encodeURIComponent(f)}`}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="plan-file-link"
              className="underline"
            >
              <code>{f}</code>
            </a>
          )}
        </span>
      ))}
    </p>
  );
}
