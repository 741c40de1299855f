import type { Conn } from "../db/client";
import { findWebhookReview } from "../db/webhooks";
import type { SessionEvent } from "../session/log/events";
import type { WebhookEvent } from "./event-names";
import { reviewPosition } from "../review/read-review";

/** The JSON every hook receives (docs/webhooks.md). Fixed when the delivery is made: retries send the same bytes. */
export type WebhookBody = {
  deliveryId: string;
  type: WebhookEvent;
  /** When the event was committed to the session's log. */
  occurredAt: string;
  /** When this delivery was made (the same on every attempt). */
  createdAt: string;
  session: { id: string; title: string; workspace: string; agent: string; seq: number };
  review: {
    id: string;
    kind: string;
    status: string;
    decision: string | null;
    feedback: string | null;
    planVersion: number | null;
    decidedBy: string | null;
    /** Issue 27: what the workspace's review policy needs before the plan is released ("0 of 2 approvals · needs
     * team db"); null for a decision, a question, or a plain one-approval policy. */
    needs: string | null;
  } | null;
  verification: { id: string; planVersion: number; status: string; method: string; summary: string } | null;
};

/** The body without its delivery id and creation time: one per event, shared by its deliveries. */
export type EventBody = Omit<WebhookBody, "deliveryId" | "createdAt">;

type SessionRow = { id: string; title: string; workspace: string; agent: string };

// The status a decision leaves a review in (the Review row may have moved on since the event).
const STATUS_OF: Record<string, string> = {
  approve: "approved",
  reject: "rejected",
  abandon: "abandoned",
  answered: "answered",
};

export function webhookEventOf(event: SessionEvent): WebhookEvent | null {
  if (event.type === "review.asked") return "review.asked";
  if (event.type === "review.answered") return "review.decided";
  if (event.type === "verification.completed") return "verification.completed";
  return null;
}

/**
 * What one logged event says to the hooks. The event's own payload is the source (it is what happened then);
 * the Review row adds only what never changes after the decision (kind, plan version, who decided).
 */
export async function eventBody(conn: Conn, session: SessionRow, event: SessionEvent): Promise<EventBody | null> {
  const type = webhookEventOf(event);
  if (!type) return null;
  const base = {
    type,
    occurredAt: event.at,
    session: {
      id: session.id,
      title: session.title,
      workspace: session.workspace,
      agent: session.agent,
      seq: event.seq,
    },
  };
  if (event.type === "verification.completed") {
    const p = event.payload;
    return {
      ...base,
      review: null,
      verification: {
        id: p.verificationId,
        planVersion: p.planVersion,
        status: p.status,
        method: p.method,
        summary: p.summary,
      },
    };
  }
  if (event.type !== "review.asked" && event.type !== "review.answered") return null;
  const reviewId = event.payload.reviewId;
  const row = await findWebhookReview(conn, reviewId);
  if (event.type === "review.asked") {
    const p = event.payload;
    const review = {
      id: reviewId,
      kind: p.kind,
      status: "pending",
      decision: null,
      feedback: null,
      planVersion: p.planVersion ?? row?.planVersion ?? null,
      decidedBy: null,
      needs: await needsOf(conn, reviewId, p.kind),
    };
    return { ...base, review, verification: null };
  }
  const p = event.payload;
  const review = {
    id: reviewId,
    kind: row?.kind ?? "plan-review",
    status: STATUS_OF[p.decision] ?? p.decision,
    decision: p.decision,
    feedback: p.feedback ?? null,
    planVersion: row?.planVersion ?? null,
    decidedBy: row?.decidedBy ?? null,
    needs: null,
  };
  return { ...base, review, verification: null };
}

async function needsOf(conn: Conn, reviewId: string, kind: string): Promise<string | null> {
  if (kind !== "plan-review") return null;
  const position = await reviewPosition(conn, { id: reviewId, sessionId: "", intent: null, status: "pending" });
  return position && !position.status.plain ? position.status.summary : null;
}
