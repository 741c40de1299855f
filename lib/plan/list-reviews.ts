import { sql, type Db } from "../db/client";

export type ReviewView = {
  id: string;
  sessionId: string;
  kind: string;
  status: string;
  intent: unknown;
  payload: unknown;
  decision: string | null;
  answer: unknown;
  feedback: string | null;
  createdAt: string;
  decidedAt: string | null;
};

type Row = {
  id: string;
  sessionId: string;
  kind: string;
  status: string;
  intent: string;
  payload: string;
  decision: string | null;
  answer: string | null;
  feedback: string | null;
  createdAt: string | Date;
  decidedAt: string | Date | null;
};

export function reviewView(r: Row): ReviewView {
  return {
    id: r.id,
    sessionId: r.sessionId,
    kind: r.kind,
    status: r.status,
    intent: JSON.parse(r.intent),
    payload: JSON.parse(r.payload),
    decision: r.decision,
    answer: r.answer ? JSON.parse(r.answer) : null,
    feedback: r.feedback,
    createdAt: new Date(r.createdAt).toISOString(),
    decidedAt: r.decidedAt ? new Date(r.decidedAt).toISOString() : null,
  };
}

export async function listReviews(
  db: Db,
  where: { id?: string; sessionId?: string; status?: string },
): Promise<ReviewView[]> {
  const clauses: string[] = [];
  const args: string[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    clauses.push(`"${key}" = ?`);
    args.push(value);
  }
  const rows = await (await sql(db)).query<Row>(
    `SELECT "id", "sessionId", "kind", "status", "intent", "payload", "decision", "answer", "feedback", "createdAt", "decidedAt" FROM "Review"${clauses.length ? ` WHERE ${clauses.join(" AND ")}` : ""} ORDER BY "createdAt", "id"`,
    args,
  );
  return rows.map(reviewView);
}
