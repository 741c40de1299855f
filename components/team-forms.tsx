"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { keepTyped } from "./keep-typed";
import { postJson } from "./post-json";

const field =
  "mt-1 w-full rounded border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900";

/** Start a teammate from the UI: the same use case as the lead's spawn_teammate tool. */
export function SpawnTeammateForm({ teamId }: { teamId: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const submit = async (form: FormData) => {
    const r = await postJson(`/api/teams/${teamId}/teammates`, {
      name: String(form.get("name")),
      task: String(form.get("task")),
      requirePlanApproval: form.get("approval") !== null,
    });
    setError(r.ok ? null : r.message);
    router.refresh();
    return r.ok;
  };
  return (
    <form
      data-testid="spawn-form"
      onSubmit={keepTyped(submit)}
      className="grid gap-2 rounded-lg border border-zinc-200 p-3 text-sm sm:grid-cols-[1fr_2fr_auto] dark:border-zinc-800"
    >
      <label>
        Name
        <input
          name="name"
          required
          pattern="[a-z][a-z0-9_\-]{0,30}"
          aria-describedby="teammate-name-format"
          title="lowercase letters, digits, - or _, starting with a letter"
          placeholder="e.g. alice"
          className={field}
        />
        <span
          id="teammate-name-format"
          data-testid="teammate-name-format"
          className="text-xs text-zinc-600 dark:text-zinc-400"
        >
          Lowercase letters, digits, - or _; starts with a letter (up to 31).
        </span>
      </label>
      <label>
        Task
        <input name="task" required className={field} />
      </label>
      <div className="flex flex-col justify-end gap-1">
        <label className="flex items-center gap-2">
          <input type="checkbox" name="approval" defaultChecked /> Plan approval
        </label>
        <button
          type="submit"
          className="rounded bg-zinc-800 px-3 py-1.5 text-white dark:bg-zinc-200 dark:text-zinc-900"
        >
          Spawn
        </button>
      </div>
      {error ? (
        <p role="alert" className="text-rose-700 sm:col-span-3 dark:text-rose-300">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** A note from the lead to a teammate, read at the teammate's next step. */
export function SendMailForm({ teamId, teammates }: { teamId: string; teammates: string[] }) {
  const router = useRouter();
  const [status, setStatus] = useState<string | null>(null);
  const submit = async (form: FormData) => {
    const r = await postJson(`/api/teams/${teamId}/mailbox`, {
      to: String(form.get("to")),
      text: String(form.get("text")),
    });
    setStatus(r.ok ? "Sent" : r.message);
    router.refresh();
    return r.ok;
  };
  if (teammates.length === 0) return null;
  return (
    <form data-testid="send-mail-form" onSubmit={keepTyped(submit)} className="flex flex-wrap items-end gap-2 text-sm">
      <label>
        To
        <select name="to" className={field}>
          {teammates.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label className="min-w-48 flex-1">
        Message
        <input name="text" required className={field} />
      </label>
      <button type="submit" className="rounded border px-3 py-1.5">
        Send
      </button>
      <span role="status" className="text-xs">
        {status}
      </span>
    </form>
  );
}
