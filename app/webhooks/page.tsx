import { readableFilter } from "@/lib/auth/rules/rights";
import { pageActor } from "@/lib/http/page-actor";
import Link from "next/link";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { listDeliveries } from "@/lib/webhooks/list-deliveries";
import { listDeliveriesQuery } from "@/app/api/webhooks/deliveries/schema";
import { RefreshOnChange } from "@/components/refresh-on-change";
import { WebhookDeliveries } from "@/components/webhook-deliveries";

export const dynamic = "force-dynamic";

/** The webhook delivery log, all sessions or one (?sessionId=), newest first. */
export default async function WebhooksPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const actor = await pageActor();
  const since = Date.now();
  const raw = await searchParams;
  const picked = Object.fromEntries(
    Object.entries(raw).flatMap(([k, v]) => (typeof v === "string" && v !== "" ? [[k, v]] : [])),
  );
  const parsed = listDeliveriesQuery.safeParse(picked);
  const deliveries = parsed.success
    ? await listDeliveries(getDb(), { ...parsed.data, ...readableFilter(actor) }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === "session_not_found") return null;
        throw error;
      })
    : null;
  const sessionId = parsed.success ? parsed.data.sessionId : undefined;
  return (
    <section aria-labelledby="webhooks-title" className="flex flex-col gap-4">
      {/* Pushed: a delivery made or attempted, by this instance or another, re-renders the page at once. */}
      <RefreshOnChange since={since} session={sessionId} deliveries />
      <header className="flex flex-col gap-1">
        <h1 id="webhooks-title" className="text-xl font-semibold">
          Webhook deliveries
        </h1>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {sessionId ? (
            <>
              Session{" "}
              <Link href={`/sessions/${sessionId}`} className="underline">
                {sessionId}
              </Link>{" "}
              ·{" "}
              <Link href="/webhooks" className="underline">
                all sessions
              </Link>
            </>
          ) : (
            "All sessions"
          )}
          . Hooks are configured with PLANGATE_WEBHOOKS or a workspace&apos;s .plangate/config.json (see
          docs/webhooks.md).
        </p>
      </header>
      {deliveries ? (
        <WebhookDeliveries deliveries={deliveries} />
      ) : (
        <p role="alert" data-testid="webhooks-invalid" className="text-sm text-rose-800 dark:text-rose-300">
          {parsed.success ? "No session has that id." : "That filter is not valid."}
        </p>
      )}
    </section>
  );
}
