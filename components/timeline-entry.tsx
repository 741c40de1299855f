import type { TimelineItem } from "@/lib/session/timeline-items";
import { DiffView } from "./diff-view";
import type { ReactNode } from "react";
import { Elapsed, formatMs } from "./elapsed";
import { Icon } from "./icons";
import { LazyMarkdown } from "./lazy-markdown";

const TONE: Record<string, string> = {
  user: "border-sky-200 bg-sky-50 dark:border-sky-900 dark:bg-sky-950/40",
  assistant: "border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900",
  mode: "border-violet-200 text-violet-900 dark:border-violet-900 dark:text-violet-200",
  plan: "border-amber-200 text-amber-950 dark:border-amber-900 dark:text-amber-100",
  decision: "border-amber-300 font-medium text-amber-950 dark:border-amber-800 dark:text-amber-100",
  retry:
    "border-amber-200 bg-amber-50/50 text-amber-950 dark:border-amber-900 dark:bg-amber-950/30 dark:text-amber-100",
};

const STATUS_WORDS: Record<string, string> = {
  running: "running",
  waiting: "waiting",
  ok: "done",
  returned: "sent back",
  error: "failed",
};

type Props = { item: TimelineItem; selected?: boolean; onSelect?: (seq: number) => void; rendered?: ReactNode };

/** "Replay from here": shows the session's state right after this event (and a fork from it). */
function SelectButton({
  seq,
  selected,
  onSelect,
}: {
  seq: number;
  selected?: boolean;
  onSelect?: (seq: number) => void;
}) {
  if (!onSelect) return null;
  return (
    <button
      type="button"
      data-testid="select-event"
      aria-pressed={selected}
      onClick={() => onSelect(seq)}
      className="float-right ml-2 inline-flex min-h-6 min-w-6 items-center gap-1 rounded px-1 text-[0.7rem] text-zinc-600 hover:bg-zinc-200 dark:text-zinc-400 dark:hover:bg-zinc-800"
      title={`Show the state after event ${seq}, and fork from it`}
    >
      <Icon name="replay" />
      Replay from here
    </button>
  );
}

// Green only for a pass: work that changed but nothing checked is not shown as done.
const VERIFIED_BORDER: Record<"pass" | "fail" | "unverified", string> = {
  pass: "border-emerald-300 dark:border-emerald-800",
  fail: "border-rose-300 dark:border-rose-800",
  unverified: "border-amber-300 dark:border-amber-800",
};

/** One timeline line; a tool call folds its result (and an edit's diff) behind a disclosure. */
export function TimelineEntry({ item, selected, onSelect, rendered }: Props) {
  const tone = TONE[item.kind] ?? "border-zinc-200 text-zinc-700 dark:border-zinc-800 dark:text-zinc-300";
  const base = `timeline-entry scroll-mt-20 rounded border px-3 py-2 text-sm ${tone} ${selected ? "ring-2 ring-sky-500" : ""}`;
  const select = <SelectButton seq={item.seq} selected={selected} onSelect={onSelect} />;
  if (item.kind === "user" || item.kind === "assistant") {
    return (
      <li
        id={`event-${item.seq}`}
        data-testid="timeline-item"
        data-kind={item.kind}
        data-seq={item.seq}
        className={base}
      >
        {select}
        <span className="sr-only">{item.kind === "user" ? "You:" : "Agent:"}</span>
        {rendered ?? <LazyMarkdown markdown={item.text} testId="message-markdown" />}
        {item.kind === "assistant" && (item.partial || item.tokens) ? (
          <p className="mt-1 flex flex-wrap gap-2 text-xs text-zinc-600 dark:text-zinc-400">
            {item.partial ? (
              <span data-testid="partial-label" className="rounded border border-zinc-300 px-1 dark:border-zinc-700">
                partial — stopped
              </span>
            ) : null}
            {item.tokens ? <span data-testid="step-usage">{item.tokens}</span> : null}
          </p>
        ) : null}
      </li>
    );
  }
  if (item.kind === "tool") {
    return (
      <li
        id={`event-${item.seq}`}
        data-testid="timeline-item"
        data-kind="tool"
        data-tool={item.tool}
        data-status={item.status}
        data-seq={item.seq}
        className={base}
      >
        {select}
        <details>
          <summary className="flex cursor-pointer items-baseline gap-2 font-mono text-xs">
            <span
              data-testid="tool-status"
              className={
                item.status === "error"
                  ? "text-rose-700 dark:text-rose-300"
                  : item.status === "ok"
                    ? "text-emerald-700 dark:text-emerald-300"
                    : ""
              }
            >
              <Icon name={item.status} label={STATUS_WORDS[item.status] ?? item.status} />
            </span>
            <span className="font-semibold">{item.tool}</span>
            <span className="min-w-0 flex-1 truncate">{item.summary}</span>
            {item.ms !== undefined ? (
              <span data-testid="tool-duration" className="text-zinc-600 dark:text-zinc-400">
                {formatMs(item.ms)}
              </span>
            ) : item.status === "running" && item.at ? (
              <span className="text-zinc-600 dark:text-zinc-400">
                running <Elapsed since={item.at} testId="tool-elapsed" />
              </span>
            ) : item.status === "waiting" ? (
              <span data-testid="tool-waiting" className="text-zinc-600 dark:text-zinc-400">
                waiting for a person
              </span>
            ) : item.status === "returned" ? (
              <span className="text-zinc-600 dark:text-zinc-400">sent back</span>
            ) : null}
          </summary>
          <div className="mt-2 flex flex-col gap-2">
            {item.diff ? <DiffView diff={item.diff} label={`Changes made by ${item.tool}`} testId="tool-diff" /> : null}
            {item.output !== null ? (
              <pre
                data-testid="tool-output"
                className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-900"
              >
                {item.output}
              </pre>
            ) : (
              <p className="text-xs">Still running.</p>
            )}
          </div>
        </details>
      </li>
    );
  }
  if (item.kind === "verification") {
    return (
      <li
        id={`event-${item.seq}`}
        data-testid="timeline-item"
        data-kind="verification"
        data-status={item.status}
        data-seq={item.seq}
        className={`${base} ${VERIFIED_BORDER[item.status]}`}
      >
        {select}
        {rendered ?? <p className="text-xs">{item.text}</p>}
      </li>
    );
  }
  if (item.kind === "plan" && rendered) {
    // Every submitted version stays readable after it is decided: the entry opens on the plan as it was.
    return (
      <li
        id={`event-${item.seq}`}
        data-testid="timeline-item"
        data-kind="plan"
        data-seq={item.seq}
        className={`${base} text-xs`}
      >
        {select}
        <details data-testid="plan-version-entry">
          <summary className="cursor-pointer">{item.text} (read it)</summary>
          <div className="mt-2 text-sm">{rendered}</div>
        </details>
      </li>
    );
  }
  return (
    <li
      id={`event-${item.seq}`}
      data-testid="timeline-item"
      data-kind={item.kind}
      data-seq={item.seq}
      className={`${base} text-xs`}
    >
      {select}
      <p className="whitespace-pre-wrap break-words">
        {item.text}
        {item.kind === "turn" && item.tokens ? (
          <>
            {" · "}
            <span data-testid="turn-usage">{item.tokens}</span>
          </>
        ) : null}
      </p>
    </li>
  );
}
