import { sql, type Db } from "../db/client";
import type { SqlRunner } from "../db/sql";
import { newId } from "../id";
import type { Rule, Ruleset } from "../permission";
import type { NewEvent } from "../session/events";
import type { PermissionAsk } from "../tools/types";

export type RequestStatus = "pending" | "once" | "always" | "reject";

export type PermissionRequestView = {
  id: string;
  sessionId: string;
  toolCallId: string | null;
  tool: string;
  permission: string;
  patterns: string[];
  always: string[];
  metadata: Record<string, unknown>;
  status: RequestStatus;
  message: string | null;
  scope: string | null;
  createdAt: string;
};

type Row = {
  id: string; sessionId: string; toolCallId: string | null; tool: string; permission: string; patterns: string; always: string;
  metadata: string; status: string; message: string | null; scope: string | null; createdAt: string | Date;
};

export function requestView(r: Row): PermissionRequestView {
  return {
    id: r.id, sessionId: r.sessionId, toolCallId: r.toolCallId, tool: r.tool, permission: r.permission,
    patterns: JSON.parse(r.patterns) as string[], always: JSON.parse(r.always) as string[],
    metadata: JSON.parse(r.metadata) as Record<string, unknown>, status: r.status as RequestStatus,
    message: r.message, scope: r.scope, createdAt: new Date(r.createdAt).toISOString(),
  };
}

const COLUMNS = '"id", "sessionId", "toolCallId", "tool", "permission", "patterns", "always", "metadata", "status", "message", "scope", "createdAt"';

const FILTERS = {
  id: '"id" = ?',
  sessionId: '"sessionId" = ?',
  status: '"status" = ?',
  toolCallId: '"toolCallId" = ?',
  workspace: '"sessionId" IN (SELECT "id" FROM "Session" WHERE "workspace" = ?)',
} as const;

export async function listRequests(db: Db, where: Partial<Record<keyof typeof FILTERS, string>>): Promise<PermissionRequestView[]> {
  const used = (Object.keys(FILTERS) as (keyof typeof FILTERS)[]).filter((k) => where[k] !== undefined);
  const clauses = used.map((k) => FILTERS[k]);
  const args = used.map((k) => where[k] as string);
  const rows = await (await sql(db)).query<Row>(
    `SELECT ${COLUMNS} FROM "PermissionRequest"${clauses.length ? ` WHERE ${clauses.join(" AND ")}` : ""} ORDER BY "createdAt", "id"`,
    args,
  );
  return rows.map(requestView);
}

/** Rows and events for new asks; the caller appends the events with the rows in one transaction. */
export function planRequests(sessionId: string, callId: string, tool: string, asks: (PermissionAsk & { askPatterns: string[] })[]) {
  const rows = asks.map((a) => ({
    id: newId("per"), sessionId, toolCallId: callId, tool, permission: a.permission,
    patterns: a.askPatterns, always: a.always.length > 0 ? a.always : a.askPatterns, metadata: a.metadata ?? {},
  }));
  const events: NewEvent[] = rows.map((r) => ({ type: "permission.asked", payload: { requestId: r.id, tool, permission: r.permission, patterns: r.patterns, callId } }));
  const write = async (run: SqlRunner) => {
    const at = new Date();
    for (const r of rows) {
      await run.execute(
        'INSERT INTO "PermissionRequest" ("id", "sessionId", "toolCallId", "tool", "permission", "patterns", "always", "metadata", "status", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [r.id, sessionId, callId, tool, r.permission, JSON.stringify(r.patterns), JSON.stringify(r.always), JSON.stringify(r.metadata), "pending", at],
      );
    }
  };
  return { rows, events, write };
}

/** Persisted "always" replies that apply to a session: its own and its workspace's. */
export async function grantRules(db: Db, sessionId: string, workspace: string): Promise<Ruleset> {
  const rows = await (await sql(db)).query<{ permission: string; pattern: string }>(
    'SELECT "permission", "pattern" FROM "PermissionGrant" WHERE ("scope" = \'session\' AND "sessionId" = ?) OR ("scope" = \'workspace\' AND "workspace" = ?) ORDER BY "createdAt", "id"',
    [sessionId, workspace],
  );
  return rows.map((r): Rule => ({ permission: r.permission, pattern: r.pattern, action: "allow" }));
}
