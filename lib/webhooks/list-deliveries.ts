import type { Db } from "../db/client";
import { listAttempts, listDeliveryRows } from "../db/webhooks";
import { AppError } from "../errors";
import type { AttemptView, DeliveryView } from "./views/webhook-view";

export type { AttemptView, DeliveryView } from "./views/webhook-view";

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "refused"] as const;

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function displayUrl(url: string): string {
  if (!URL.canParse(url)) return url.slice(0, 200);
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}${u.search ? "?…" : ""}`;
}

/** Deliveries newest first (ids are time-ordered), each with its attempts in order. */
export async function listDeliveries(
  db: Db,
  where: { sessionId?: string; status?: string; limit?: number; roots?: readonly string[] } = {},
): Promise<DeliveryView[]> {
  const rows = await listDeliveryRows(db, { ...where, limit: where.limit ?? 50 });
  if (!rows) throw new AppError("session_not_found");
  const ids = rows.map((r) => r.id);
  const attempts = new Map<string, AttemptView[]>();
  for (const a of await listAttempts(db, ids)) {
    const view = {
      number: a.number,
      startedAt: a.startedAt.toISOString(),
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      error: a.error,
    };
    attempts.set(a.deliveryId, [...(attempts.get(a.deliveryId) ?? []), view]);
  }
  return rows.map((r) => ({
    id: r.id,
    sessionId: r.sessionId,
    seq: r.seq,
    event: r.event,
    url: displayUrl(r.url),
    source: r.source,
    status: r.status,
    attempts: attempts.get(r.id) ?? [],
    nextAttemptAt: r.status === "pending" ? iso(r.nextAttemptAt) : null,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    finishedAt: iso(r.finishedAt),
    body: JSON.parse(r.body),
  }));
}
