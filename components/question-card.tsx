"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { useOneShot } from "./use-one-shot";

export type QuestionView = {
  question: string;
  header?: string;
  options?: { label: string; description?: string }[];
  multiple?: boolean;
};

/** The agent's question tool: pick options (or type an answer), or dismiss it. */
export function QuestionCard({ reviewId, questions }: { reviewId: string; questions: QuestionView[] }) {
  const router = useRouter();
  const { send, busy, error } = useOneShot(() => router.refresh());
  const [picked, setPicked] = useState<string[][]>(() => questions.map(() => []));
  const [typed, setTyped] = useState<string[]>(() => questions.map(() => ""));
  const url = `/api/reviews/${reviewId}/decision`;
  const answers = questions.map((_, i) => [...(picked[i] ?? []), ...(typed[i]?.trim() ? [typed[i]!.trim()] : [])]);
  const card = useRef<HTMLElement>(null);
  // A question waiting on the person scrolls into view and takes the focus, like a review or an ask.
  useEffect(() => {
    card.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
    card.current?.focus({ preventScroll: true });
  }, []);
  const toggle = (qi: number, label: string, multiple: boolean) =>
    setPicked((all) =>
      all.map((p, i) =>
        i !== qi ? p : multiple ? (p.includes(label) ? p.filter((l) => l !== label) : [...p, label]) : [label],
      ),
    );
  return (
    <section
      ref={card}
      tabIndex={-1}
      data-testid="question-card"
      aria-labelledby="question-title"
      className="rounded-lg border outline-none focus-visible:ring-2 focus-visible:ring-violet-500 border-violet-300 bg-white p-4 shadow-sm dark:border-violet-800 dark:bg-zinc-900"
    >
      <h2 id="question-title" className="mb-2 font-semibold">
        The agent asks
      </h2>
      {questions.map((q, qi) => (
        <fieldset key={qi} className="mb-3">
          <legend className="text-sm font-medium">{q.header ? `${q.header}: ${q.question}` : q.question}</legend>
          {(q.options ?? []).map((o) => (
            <label key={o.label} className="mt-1 flex items-start gap-2 text-sm">
              <input
                type={q.multiple ? "checkbox" : "radio"}
                name={`q-${qi}`}
                checked={picked[qi]?.includes(o.label) ?? false}
                onChange={() => toggle(qi, o.label, q.multiple ?? false)}
              />
              <span>
                {o.label}
                {o.description ? (
                  <span className="block text-xs text-zinc-600 dark:text-zinc-400">{o.description}</span>
                ) : null}
              </span>
            </label>
          ))}
          <label className="mt-1 block text-xs">
            {q.options?.length ? "Or type your own answer" : "Your answer"}
            <input
              data-testid="question-answer"
              value={typed[qi] ?? ""}
              onChange={(e) => setTyped((t) => t.map((v, i) => (i === qi ? e.target.value : v)))}
              className="mt-1 w-full rounded border border-zinc-300 px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-950"
            />
          </label>
        </fieldset>
      ))}
      {error ? (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          data-testid="send-answers"
          disabled={busy || answers.some((a) => a.length === 0)}
          onClick={() => void send(url, { answers })}
          className="min-h-11 rounded bg-violet-800 px-3 py-1.5 text-sm text-white disabled:opacity-50"
        >
          Send answers
        </button>
        <button
          type="button"
          data-testid="dismiss-question"
          disabled={busy}
          onClick={() => void send(url, { decision: "abandon" })}
          className="min-h-11 rounded border px-3 py-1.5 text-sm"
        >
          Dismiss
        </button>
      </div>
    </section>
  );
}
