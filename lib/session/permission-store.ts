import type { Conn, Db } from "../db/client";
import { insertRequests, selectRequests, type RequestFilter, type RequestRow } from "../db/permissions/requests";
import { newId } from "../id";
import type { NewEvent } from "./log/events";
import type { PermissionAsk } from "./log/tool-types";

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

export function requestView(r: RequestRow): PermissionRequestView {
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

export async function listRequests(db: Db, where: RequestFilter): Promise<PermissionRequestView[]> {
  return (await selectRequests(db, where)).map(requestView);
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
  // Joins the append's transaction (appendEvents' `also`): the asks are stored with their events or not at all.
  const write = (trx: Conn) => insertRequests(trx, rows, new Date());
  return { rows, events, write };
}
