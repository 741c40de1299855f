import { sql, sqlTransaction, type Db } from "../db/client";
import type { SqlRunner } from "../db/sql";
import { getEnv, type Env } from "../env";
import { newId } from "../id";
import { readEventsWith } from "../session/read-events";
import { workspaceConfigFor } from "../workspace/effective-config";
import { eventBody, type WebhookBody } from "./body";
import { webhookTargets } from "./targets";

type OutboxRow = { id: string; sessionId: string; seq: number; type: string };
type SessionRow = { id: string; title: string; workspace: string; agent: string };

type NewDelivery = {
  id: string;
  sessionId: string;
  seq: number;
  event: string;
  url: string;
  source: string;
  status: "pending" | "refused";
  body: string;
  error: string | null;
};

/**
 * The deliveries one outbox row owes: one per target URL, each with its own id in its body. Read outside any
 * transaction (the workspace config is a file), so the claiming transaction stays short.
 */
async function owedDeliveries(db: Db, run: SqlRunner, row: OutboxRow, env: Env, now: Date): Promise<NewDelivery[]> {
  const [event] = await readEventsWith(run, row.sessionId, { after: row.seq - 1, upto: row.seq });
  const [session] = await run.query<SessionRow>(
    'SELECT "id", "title", "workspace", "agent" FROM "Session" WHERE "id" = ?',
    [row.sessionId],
  );
  if (!event || !session) return [];
  const body = await eventBody(run, session, event);
  if (!body) return [];
  // A workspace's own hooks are called only once a person trusted its config (the file is untrusted input).
  const { raw, trusted } = await workspaceConfigFor(db, session.workspace);
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
    return {
      id,
      sessionId: row.sessionId,
      seq: row.seq,
      event: body.type,
      url: target.url,
      source: target.source,
      status: target.refused ? "refused" : "pending",
      body: JSON.stringify(full),
      error: target.refused ?? null,
    };
  });
}

/**
 * Turns committed outbox rows into delivery rows. Taking a row is deleting it, in the transaction that writes
 * its deliveries: two instances sweeping together make them once (the second DELETE finds nothing), and a
 * crash before the commit leaves the row for the next sweep. Returns the ids of the deliveries now due.
 */
export async function fanOutOutbox(db: Db, limit = 100): Promise<{ due: string[]; more: boolean }> {
  const run = await sql(db);
  const rows = await run.query<OutboxRow>(
    'SELECT "id", "sessionId", "seq", "type" FROM "EventOutbox" ORDER BY "id" LIMIT ?',
    [limit],
  );
  const due: string[] = [];
  const env = getEnv();
  let failed = 0;
  for (const row of rows) {
    try {
      due.push(...(await fanOutOne(db, run, row, env)));
    } catch (error) {
      // One row that cannot be fanned out (it stays, and is retried next sweep) must not hold up the others.
      failed += 1;
      console.error(`plangate: webhooks: outbox row ${row.id} (${row.type} of ${row.sessionId}) failed`, error);
    }
  }
  // "more" only when this batch made progress: a page of rows that keep failing must not spin the sweep.
  return { due, more: rows.length === limit && failed < rows.length };
}

async function fanOutOne(db: Db, run: SqlRunner, row: OutboxRow, env: Env): Promise<string[]> {
  const now = new Date();
  const deliveries = await owedDeliveries(db, run, row, env, now);
  const taken = await sqlTransaction(db, async (tx) => {
    if ((await tx.execute('DELETE FROM "EventOutbox" WHERE "id" = ?', [row.id])) !== 1) return false;
    for (const d of deliveries) {
      const refused = d.status === "refused";
      await tx.execute(
        'INSERT INTO "WebhookDelivery" ("id", "sessionId", "seq", "event", "url", "source", "status", "body", "attempts", "nextAttemptAt", "error", "createdAt", "finishedAt") ' +
          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)",
        [
          d.id,
          d.sessionId,
          d.seq,
          d.event,
          d.url,
          d.source,
          d.status,
          d.body,
          refused ? null : now,
          d.error,
          now,
          refused ? now : null,
        ],
      );
    }
    return true;
  });
  return taken ? deliveries.filter((d) => d.status === "pending").map((d) => d.id) : [];
}
