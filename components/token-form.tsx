"use client";

import { useState } from "react";
import { FIELD_BOX, MakeOnceForm } from "./make-once-form";
import { sendJson } from "./post-json";

type Made = { token: { id: string; name: string; scope: string }; secret: string };

/** Makes a scoped token; its secret is shown once here (the server keeps only its hash). */
export function TokenForm() {
  const [name, setName] = useState("");
  const [scope, setScope] = useState("agent");
  return (
    <MakeOnceForm<Made>
      testId="token-form"
      url="/api/tokens"
      body={() => ({ name, scope })}
      submit={{ label: "Make token", testId: "token-submit" }}
      shown={(made) => (
        <p className="w-full text-sm" data-testid="token-made">
          {made.token.name} ({made.token.scope}): <code data-testid="token-secret">{made.secret}</code> — copy it now,
          it is not shown again. <a href="/tokens">Done</a>
        </p>
      )}
    >
      <label className="flex flex-col gap-1 text-sm">
        Name
        <input
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
          className={FIELD_BOX}
          data-testid="token-name"
        />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Scope
        <select
          value={scope}
          onChange={(e) => setScope(e.target.value)}
          className={FIELD_BOX}
          data-testid="token-scope"
        >
          <option value="agent">agent: submits its plans and asks, decides nothing</option>
          <option value="reviewer">reviewer: answers as you</option>
        </select>
      </label>
    </MakeOnceForm>
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
