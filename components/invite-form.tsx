"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { CopyButton } from "./copy-button";
import { FIELD_BOX, MakeOnceForm } from "./make-once-form";

type Invite = { url: string; expiresAt: string; role: string; root: string };

/**
 * An owner makes a one-time invite link for a role over a root; the link is shown once (only its hash is kept),
 * with a Copy button, to pass on. The pending list beside it refreshes.
 */
export function InviteForm({ roots }: { roots: string[] }) {
  const router = useRouter();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState("member");
  const [root, setRoot] = useState(roots[0] ?? "/");
  return (
    <MakeOnceForm<Invite>
      testId="invite-form"
      url="/api/invites"
      body={() => ({ role, root, ...(email.trim() ? { email } : {}) })}
      submit={{ label: "Make invite link", testId: "invite-submit" }}
      onMade={() => router.refresh()}
      shown={(made) => (
        <p className="w-full text-sm" data-testid="invite-made">
          One-time link for a {made.role} over {made.root} (until {new Date(made.expiresAt).toLocaleDateString()}):{" "}
          <code data-testid="invite-url" className="break-all">
            {made.url}
          </code>{" "}
          <CopyButton text={made.url} testId="invite-copy" label="Copy link" />
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">
            Shown only now: the server keeps no copy of the link, only a way to recognise it.
          </span>
        </p>
      )}
    >
      <label className="flex flex-col gap-1 text-sm">
        Email (optional)
        <input
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          className={FIELD_BOX}
          data-testid="invite-email"
        />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Role
        <select value={role} onChange={(e) => setRole(e.target.value)} className={FIELD_BOX} data-testid="invite-role">
          {["viewer", "member", "reviewer", "owner"].map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-sm">
        Over
        <input value={root} onChange={(e) => setRoot(e.target.value)} className={FIELD_BOX} data-testid="invite-root" />
      </label>
    </MakeOnceForm>
  );
}
