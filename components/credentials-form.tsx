"use client";

import { useState } from "react";
import { postJson } from "./post-json";

type Field = "name" | "email" | "password";

/**
 * The sign-in form and a one-time link's form (setup, invite, reset): fields, one button, the server's
 * message on failure; on success the page goes on to `next` (a path on this server only). What was typed
 * stays in the boxes when it fails.
 */
export function CredentialsForm(props: {
  action: string;
  fields: Field[];
  submit: string;
  next: string;
  fixedEmail?: string;
  failed401?: string;
}) {
  const [values, setValues] = useState<Record<Field, string>>({
    name: "",
    email: props.fixedEmail ?? "",
    password: "",
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const next = props.next.startsWith("/") && !props.next.startsWith("//") ? props.next : "/";

  async function send(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const body = Object.fromEntries(props.fields.map((f) => [f, values[f]]));
    const result = await postJson(props.action, body);
    setBusy(false);
    if (result.ok) window.location.assign(next);
    else setError(result.status === 401 && props.failed401 ? props.failed401 : result.message);
  }

  const label: Record<Field, string> = { name: "Your name", email: "Email", password: "Password" };
  return (
    <form onSubmit={send} className="flex max-w-sm flex-col gap-3" data-testid="credentials-form">
      {props.fields.map((f) => (
        <label key={f} className="flex flex-col gap-1 text-sm">
          {label[f]}
          <input
            name={f}
            data-testid={`credentials-${f}`}
            type={f === "password" ? "password" : f === "email" ? "email" : "text"}
            autoComplete={f === "password" ? (props.fields.includes("name") ? "new-password" : "current-password") : f}
            required
            minLength={f === "password" && props.fields.includes("name") ? 10 : undefined}
            readOnly={f === "email" && props.fixedEmail !== undefined}
            value={values[f]}
            onChange={(e) => setValues({ ...values, [f]: e.target.value })}
            className="rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700"
          />
        </label>
      ))}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400" data-testid="credentials-error">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={busy}
        data-testid="credentials-submit"
        className="rounded bg-zinc-900 px-3 py-1.5 text-sm text-white disabled:opacity-60 dark:bg-zinc-100 dark:text-zinc-900"
      >
        {props.submit}
      </button>
    </form>
  );
}
