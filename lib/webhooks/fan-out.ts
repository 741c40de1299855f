import type { Db } from "../db/client";
import { listOutboxRows } from "../db/outbox-rows";
import { findWebhookSession, takeOutboxRow, type NewDeliveryRow } from "../db/webhooks";
import { getEnv, type Env } from "../env";
import { newId } from "../id";
import { announceTouched } from "../session/log-watch";
import { readEvents } from "../db/session-log/read-events";
import { workspaceConfigFor } from "../workspace/effective-config";
import { isExternalModel } from "../session/external-agents";
import { applyNoticeWork } from "../db/notify/notices";
import { type NoticeWork, notifying, owedNotices } from "../notify/owed-notices";
import { eventBody, type WebhookBody } from "./body";
import { webhookTargets } from "./targets";

type OutboxRow = { id: string; sessionId: string; seq: number; type: string };

/**
 * The deliveries one outbox row owes: one per target URL, each with its own id in its body. Read outside any
 * transaction (the workspace config is a file), so the claiming transaction stays short.
 */
async function owedDeliveries(db: Db, row: OutboxRow, env: Env, now: Date): Promise<NewDeliveryRow[]> {
  const session = await findWebhookSession(db, row.sessionId);
  if (!session) return [];
  // A workspace's own hooks are called only once a person trusted its config (the file is untrusted input); an
  // outside agent's folder is a label (it may be on another machine): its config is never read.
  const { raw, trusted } = isExternalModel(session.model)
    ? { raw: {}, trusted: false }
    : await workspaceConfigFor(db, session.workspace);
  // No hook anywhere (the server names none, nor does this workspace): the event and what its body would say
  // are not read. Every approval and submission makes a row, and most servers have no hooks (issue 43).
  if (env.webhooks.length === 0 && (raw.webhooks ?? []).length === 0) return [];
  const [event] = await readEvents(db, row.sessionId, { after: row.seq - 1, upto: row.seq });
  if (!event) return [];
  const body = await eventBody(db, session, event);
  if (!body) return [];
  return webhookTargets(body.type, env, raw, trusted).map((target) => {
    const id = newId("whd", now.getTime());
    const full: WebhookBody = {
      deliveryId: id,
      type: body.type,
      occurredAt: body.occurredAt,
      createdAt: now.toISOString(),
      session: body.session,
      review: body.review,
      verification: body.verification,
    };
    const refused = Boolean(target.refused);
    return {
      id,
      sessionId: row.sessionId,
      seq: row.seq,
      event: body.type,
      url: target.url,
      source: target.source,
      status: refused ? "refused" : "pending",
      body: JSON.stringify(full),
      attempts: 0,
      // A refused hook is never sent: it is finished as it is made, with nothing due.
      nextAttemptAt: refused ? null : now,
      error: target.refused ?? null,
      createdAt: now,
      finishedAt: refused ? now : null,
    };
  });
}

/** What a sweep of the outbox made: webhook deliveries and notices now due, and whether more rows wait. */
export type FannedOut = { due: string[]; notices: string[]; more: boolean };

/**
 * Turns committed outbox rows into delivery rows and notices. Taking a row is deleting it, in the transaction that
 * writes what it owes: two instances sweeping together make them once (the second DELETE finds nothing), and a
 * crash before the commit leaves the row for the next sweep. Returns the ids of what is now due.
 */
export async function fanOutOutbox(db: Db, limit = 100, now: () => Date = () => new Date()): Promise<FannedOut> {
  const rows = await listOutboxRows(db, limit);
  const out: FannedOut = { due: [], notices: [], more: false };
  const env = getEnv();
  let failed = 0;
  for (const row of rows) {
    try {
      const made = await fanOutOne(db, row, env, now());
      out.due.push(...made.due);
      out.notices.push(...made.notices);
    } catch (error) {
      // One row that cannot be fanned out (it stays, and is retried next sweep) must not hold up the others.
      failed += 1;
      console.error(`plangate: outbox row ${row.id} (${row.type} of ${row.sessionId}) failed`, error);
    }
  }
  // "more" only when this batch made progress: a page of rows that keep failing must not spin the sweep.
  out.more = rows.length === limit && failed < rows.length;
  return out;
}

async function fanOutOne(db: Db, row: OutboxRow, env: Env, now: Date): Promise<Omit<FannedOut, "more">> {
  const deliveries = await owedDeliveries(db, row, env, now);
  // Notices are read only when a channel is configured: most servers tell nobody, and every event makes a row.
  let work: NoticeWork | null = null;
  if (notifying(env)) {
    const [event] = await readEvents(db, row.sessionId, { after: row.seq - 1, upto: row.seq });
    work = event ? await owedNotices(db, env, event, row.sessionId, now) : null;
  }
  const taken = await takeOutboxRow(
    db,
    row.id,
    deliveries,
    work && (work.notices.length > 0 || work.withdraw.length > 0)
      ? (trx) => applyNoticeWork(trx, work, now)
      : undefined,
  );
  if (taken && deliveries.length > 0) await announceTouched(db, row.sessionId);
  if (!taken) return { due: [], notices: [] };
  return {
    due: deliveries.filter((d) => d.status === "pending").map((d) => d.id),
    notices: (work?.notices ?? []).map((n) => n.id),
  };
}
