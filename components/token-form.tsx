"use client";

import { useState } from "react";
import { postJson, sendJson } from "./post-json";

type Made = { token: { id: string; name: string; scope: string }; secret: string };

/** Makes a scoped token; its secret is shown once here (the server keeps only its hash). */
export function TokenForm() {
  const [name, setName] = useState("");
  const [scope, setScope] = useState("agent");
  const [made, setMade] = useState<Made | null>(null);
  const [error, setError] = useState<string | null>(null);
  const box = "rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700";
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      data-testid="token-form"
      onSubmit={async (e) => {
        e.preventDefault();
        setError(null);
        const result = await postJson<Made>("/api/tokens", { name, scope });
        if (result.ok) setMade(result.data);
        else setError(result.message);
      }}
    >
      <label className="flex flex-col gap-1 text-sm">
        Name
        <input
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
          className={box}
          data-testid="token-name"
        />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Scope
        <select value={scope} onChange={(e) => setScope(e.target.value)} className={box} data-testid="token-scope">
          <option value="agent">agent: submits its plans and asks, decides nothing</option>
          <option value="reviewer">reviewer: answers as you</option>
        </select>
      </label>
      <button
        type="submit"
        className="rounded bg-zinc-900 px-3 py-1 text-sm text-white dark:bg-zinc-100 dark:text-zinc-900"
        data-testid="token-submit"
      >
        Make token
      </button>
      {error ? (
        <p role="alert" className="w-full text-sm">
          {error}
        </p>
      ) : null}
      {made ? (
        <p className="w-full text-sm" data-testid="token-made">
          {made.token.name} ({made.token.scope}): <code data-testid="token-secret">{made.secret}</code> — copy it now,
          it is not shown again. <a href="/tokens">Done</a>
        </p>
      ) : null}
    </form>
  );
}

/** Revokes a token: it stops at its next request. */
export function RevokeTokenButton({ id, name }: { id: string; name: string }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <span>
      <button
        type="button"
        className="text-sm underline"
        data-testid={`revoke-${name}`}
        onClick={async () => {
          const result = await sendJson("DELETE", `/api/tokens/${id}`);
          if (result.ok) window.location.reload();
          else setError(result.message);
        }}
      >
        Revoke
      </button>
      {error ? <span role="alert"> {error}</span> : null}
    </span>
  );
}
