import { notFound } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getSession } from "@/lib/session/get-session";
import { readEvents } from "@/lib/session/read-events";
import { planDetails } from "@/lib/plan/review-details";
import { readGates } from "@/lib/agent/mode-gates";
import { StatusBadge } from "@/components/status-badge";
import { SessionTimeline } from "@/components/session-timeline";
import { DecisionCard } from "@/components/decision-card";
import { Composer } from "@/components/composer";
import { LiveRefresh } from "@/components/live-refresh";

export const dynamic = "force-dynamic";

const PAGE = 200;

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const db = getDb();
  const found = await getSession(db, id).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "session_not_found") return null;
    throw error;
  });
  if (!found) notFound();
  const { session, state } = found;
  const events = await readEvents(db, id, { after: Math.max(0, state.lastSeq - PAGE) });
  const review = state.pendingReview?.kind === "plan-review" ? await planDetails(db, state.pendingReview.id) : null;
  const gates = await readGates(db);
  return (
    <section aria-labelledby="session-title" className="flex flex-col gap-4">
      <LiveRefresh sessionId={id} after={state.lastSeq} />
      <header className="flex flex-wrap items-center gap-3">
        <h1 id="session-title" className="text-xl font-semibold">
          {session.title}
        </h1>
        <StatusBadge status={state.status} />
        <span data-testid="mode-chip" data-mode={state.mode} className="rounded-full border px-2 py-0.5 text-xs">
          {state.mode === "plan" ? "Plan" : state.mode}
          {state.plan.pending ? " (change pending)" : ""}
        </span>
      </header>
      <SessionTimeline events={events} />
      {review && state.pendingReview ? (
        <DecisionCard reviewId={state.pendingReview.id} version={review.version} markdown={review.markdown} diff={review.diff} autoAllowed={gates.autoGateOpen} />
      ) : (
        <Composer sessionId={id} />
      )}
    </section>
  );
}
