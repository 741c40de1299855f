"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { GrantView } from "@/lib/session/views/grant-view";
import { CodeWords } from "./code-words";
import { sendJson } from "./post-json";

/** The "always" rules that apply to this session (its own and its workspace's), each revocable. */
export function SavedPermissions({
  grants,
  testId = "saved-permissions",
  open = false,
}: {
  grants: GrantView[];
  testId?: string;
  open?: boolean;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  if (grants.length === 0) return null;
  const revoke = async (id: string) => {
    const r = await sendJson("DELETE", `/api/grants/${id}`);
    if (!r.ok) setError(r.message);
    router.refresh();
  };
  return (
    <details
      data-testid={testId}
      open={open}
      className="rounded border border-zinc-200 p-2 text-xs dark:border-zinc-800"
    >
      <summary className="cursor-pointer">Saved permissions ({grants.length})</summary>
      <ul className="mt-1 flex flex-col gap-1">
        {grants.map((g) => (
          <li key={g.id} data-testid="saved-permission" className="flex flex-wrap items-center gap-2">
            <span>
              <CodeWords text={g.words} />
            </span>
            <span className="text-zinc-600 dark:text-zinc-400">
              · {g.scope === "workspace" ? "every session in this workspace" : "this session"}
              {g.actor === "outside" ? " · outside agents only" : ""}
            </span>
            <button
              type="button"
              data-testid="revoke-permission"
              onClick={() => void revoke(g.id)}
              className="rounded border px-2 py-0.5"
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
      {error ? (
        <p role="alert" className="text-rose-700 dark:text-rose-300">
          {error}
        </p>
      ) : null}
    </details>
  );
}
