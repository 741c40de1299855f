"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ConfigTrustView } from "@/lib/workspace/views/config-trust-view";
import { sendJson } from "./post-json";

/**
 * A workspace config that would widen what happens without a person (allow rules, folders, the verify command,
 * webhooks, agents) and that nobody trusted in this content: what it would widen, and a button that trusts
 * exactly the content shown. Once trusted, the same card (on the workspace page) takes the trust back.
 */
export function ConfigTrustCard({ view, workspaceLink = true }: { view: ConfigTrustView; workspaceLink?: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (method: "POST" | "DELETE") => {
    setBusy(true);
    const url =
      method === "POST"
        ? "/api/workspaces/trust"
        : `/api/workspaces/trust?workspace=${encodeURIComponent(view.workspace)}`;
    const r = await sendJson(
      method,
      url,
      method === "POST" ? { workspace: view.workspace, hash: view.hash } : undefined,
    );
    setBusy(false);
    if (!r.ok) setError(r.message);
    router.refresh();
  };
  const changed = !view.trusted && view.trust !== null;
  return (
    <section
      data-testid="config-trust"
      aria-labelledby="config-trust-heading"
      className="rounded-lg border border-amber-300 p-3 text-sm dark:border-amber-700"
    >
      <h2 id="config-trust-heading" className="font-semibold">
        {view.trusted
          ? "This workspace's config is trusted"
          : changed
            ? "This workspace's config changed since it was trusted"
            : "This workspace's config waits for your trust"}
      </h2>
      <p className="text-xs text-zinc-700 dark:text-zinc-300">
        <code>.plangate/config.json</code> is a file in the repository: anyone who could change the repository could
        have written it. Its deny and ask rules apply now;{" "}
        {view.trusted
          ? "what it widens applies too:"
          : "what it would widen applies only once you trust this exact content:"}
      </p>
      <ul data-testid="config-widening" className="my-2 list-disc pl-5 text-xs">
        {view.widening.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
      {view.trust ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {view.trusted ? "Trusted" : "An earlier content was trusted"} on{" "}
          {new Date(view.trust.trustedAt).toLocaleString()} ({view.trust.hash.slice(0, 12)}…).
        </p>
      ) : null}
      <div className="mt-2 flex flex-wrap items-center gap-2">
        {view.trusted ? (
          <button
            type="button"
            data-testid="revoke-config-trust"
            disabled={busy}
            onClick={() => void act("DELETE")}
            className="rounded border px-2 py-0.5"
          >
            Take trust back
          </button>
        ) : (
          <button
            type="button"
            data-testid="trust-config"
            disabled={busy || view.hash === null}
            onClick={() => void act("POST")}
            className="rounded border border-amber-500 px-2 py-0.5 font-medium"
          >
            Trust this config
          </button>
        )}
        {workspaceLink ? (
          <Link
            href={`/workspace?path=${encodeURIComponent(view.workspace)}`}
            className="text-xs underline"
            data-testid="workspace-link"
          >
            Workspace settings
          </Link>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-rose-700 dark:text-rose-300">
          {error}
        </p>
      ) : null}
    </section>
  );
}
