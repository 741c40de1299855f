import { sql, type Db } from "../db/client";
import type { SqlRunner } from "../db/sql";
import { newId } from "../id";
import type { NewEvent } from "../core/events";
import type { PermissionAsk } from "../core/tool-types";

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
  id: string;
  sessionId: string;
  toolCallId: string | null;
  tool: string;
  permission: string;
  patterns: string;
  always: string;
  metadata: string;
  status: string;
  message: string | null;
  scope: string | null;
  createdAt: string | Date;
};

export function requestView(r: Row): PermissionRequestView {
  return {
    id: r.id,
    sessionId: r.sessionId,
    toolCallId: r.toolCallId,
    tool: r.tool,
    permission: r.permission,
    patterns: JSON.parse(r.patterns) as string[],
    always: JSON.parse(r.always) as string[],
    metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    status: r.status as RequestStatus,
    message: r.message,
    scope: r.scope,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

const COLUMNS =
  '"id", "sessionId", "toolCallId", "tool", "permission", "patterns", "always", "metadata", "status", "message", "scope", "createdAt"';

const FILTERS = {
  id: '"id" = ?',
  sessionId: '"sessionId" = ?',
  status: '"status" = ?',
  toolCallId: '"toolCallId" = ?',
  workspace: '"sessionId" IN (SELECT "id" FROM "Session" WHERE "workspace" = ?)',
} as const;

export async function listRequests(
  db: Db,
  where: Partial<Record<keyof typeof FILTERS, string>>,
): Promise<PermissionRequestView[]> {
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
export function planRequests(
  sessionId: string,
  callId: string,
  tool: string,
  asks: (PermissionAsk & { askPatterns: string[] })[],
) {
  const rows = asks.map((a) => {
    // Only the patterns that ask get "always" choices: the others were already allowed.
    const choices = a.alwaysOptions?.filter((c) => a.askPatterns.includes(c.pattern));
    const always = choices
      ? choices.map((c) => c.options[c.options.length - 1]?.rule ?? c.pattern)
      : a.always.length > 0
        ? a.always
        : a.askPatterns;
    const control = a.control?.some((p) => a.askPatterns.includes(p)) === true;
    const exactOnly = a.exactOnly?.filter((p) => a.askPatterns.includes(p)) ?? [];
    // Stored with the request so that a later "always" judges it the way the gate did.
    const judged = {
      ...(choices ? { alwaysOptions: choices } : {}),
      ...(control ? { control: true } : {}),
      ...(exactOnly.length > 0 ? { exactOnly } : {}),
    };
    return {
      id: newId("per"),
      sessionId,
      toolCallId: callId,
      tool,
      permission: a.permission,
      patterns: a.askPatterns,
      always: [...new Set(always)],
      metadata: { ...(a.metadata ?? {}), ...judged },
    };
  });
  const events: NewEvent[] = rows.map((r) => ({
    type: "permission.asked",
    payload: { requestId: r.id, tool, permission: r.permission, patterns: r.patterns, callId },
  }));
  const write = async (run: SqlRunner) => {
    const at = new Date();
    for (const r of rows) {
      await run.execute(
        'INSERT INTO "PermissionRequest" ("id", "sessionId", "toolCallId", "tool", "permission", "patterns", "always", "metadata", "status", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          r.id,
          sessionId,
          callId,
          tool,
          r.permission,
          JSON.stringify(r.patterns),
          JSON.stringify(r.always),
          JSON.stringify(r.metadata),
          "pending",
          at,
        ],
      );
    }
  };
  return { rows, events, write };
}
