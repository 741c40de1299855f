"use client";

import { useState, type ReactNode } from "react";
import { postJson } from "./post-json";

/** The look of a field in a small inline form. */
export const FIELD_BOX = "rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700";

/**
 * A small form that makes one thing whose secret part the server shows once (an invite link, a token): the form
 * stays as typed when the server refuses, with its message beside it.
 */
export function MakeOnceForm<T>({
  testId,
  url,
  body,
  submit,
  shown,
  onMade,
  children,
}: {
  testId: string;
  url: string;
  body: () => unknown;
  submit: { label: string; testId: string };
  shown: (made: T) => ReactNode;
  /** After the server made it (a list beside the form refreshes). */
  onMade?: () => void;
  children: ReactNode;
}) {
  const [made, setMade] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      data-testid={testId}
      onSubmit={async (e) => {
        e.preventDefault();
        setError(null);
        const result = await postJson<T>(url, body());
        if (!result.ok) return setError(result.message);
        setMade(result.data);
        onMade?.();
      }}
    >
      {children}
      <button
        type="submit"
        className="rounded bg-zinc-900 px-3 py-1 text-sm text-white dark:bg-zinc-100 dark:text-zinc-900"
        data-testid={submit.testId}
      >
        {submit.label}
      </button>
      {error ? (
        <p role="alert" className="w-full text-sm">
          {error}
        </p>
      ) : null}
      {made ? shown(made) : null}
    </form>
  );
}
