"use client";

import { useState } from "react";
import { postJson } from "./post-json";

type Invite = { url: string; expiresAt: string; role: string; root: string };

/** An owner makes a one-time invite link for a role over a root; the link is shown once, to pass on. */
export function InviteForm({ roots }: { roots: string[] }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("member");
  const [root, setRoot] = useState(roots[0] ?? "/");
  const [made, setMade] = useState<Invite | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function send(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    const result = await postJson<Invite>("/api/invites", { role, root, ...(email.trim() ? { email } : {}) });
    if (result.ok) setMade(result.data);
    else setError(result.message);
  }
  const box = "rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700";
  return (
    <form onSubmit={send} className="flex flex-wrap items-end gap-2" data-testid="invite-form">
      <label className="flex flex-col gap-1 text-sm">
        Email (optional)
        <input
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className={box}
          data-testid="invite-email"
        />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Role
        <select value={role} onChange={(e) => setRole(e.target.value)} className={box} data-testid="invite-role">
          {["viewer", "member", "reviewer", "owner"].map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Over
        <input value={root} onChange={(e) => setRoot(e.target.value)} className={box} data-testid="invite-root" />
      </label>
      <button
        type="submit"
        className="rounded bg-zinc-900 px-3 py-1 text-sm text-white dark:bg-zinc-100 dark:text-zinc-900"
        data-testid="invite-submit"
      >
        Make invite link
      </button>
      {error ? (
        <p role="alert" className="w-full text-sm">
          {error}
        </p>
      ) : null}
      {made ? (
        <p className="w-full text-sm" data-testid="invite-made">
          One-time link for a {made.role} over {made.root} (until {new Date(made.expiresAt).toLocaleDateString()}):{" "}
          <code data-testid="invite-url" className="break-all">
            {made.url}
          </code>
        </p>
      ) : null}
    </form>
  );
}
