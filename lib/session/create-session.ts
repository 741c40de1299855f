import { withTransaction, type Db, type Executor } from "../db/client";
import { insertSession } from "../db/sessions";
import { newId } from "../id";
import { emptyState, type SessionState } from "./log/fold";
import { afterCommit, appendEventsInTx, type Appended, planAppend } from "./append-events";
import { projectionColumns } from "./log/projection";
import { assignSearchKey } from "../db/session-log/search-rows";
import type { Mode, NewEvent } from "./log/events";
import type { Starter } from "../auth/rules/rights";

export type CreateSessionInput = {
  title: string;
  workspace: string;
  agent: string;
  model: string;
  mode: Mode;
  planSlug?: string | null;
  parentId?: string | null;
  teamId?: string | null;
  role?: string | null;
  parentCallId?: string;
  script?: unknown[];
  /** A given id (an outside agent's session, derived from its own id); new otherwise. */
  id?: string;
  /** The outside agent's own session id. */
  externalId?: string;
  /** Who started it, from the actor the server identified (never from a request body or a file). */
  starter?: Starter;
};

/**
 * More events that must commit with the new session (an outside agent's first plan), appended in the same batch as
 * session.created: one transaction, one write of the log, projection and search index, and a failure leaves no
 * session behind. `events` is given the state after session.created; `also` writes rows that commit with them.
 */
export type ThenAppend = {
  events: (created: SessionState) => NewEvent[];
  also: (run: Executor, appended: Appended) => Promise<void>;
};

const sessionCreated = (input: CreateSessionInput): NewEvent => ({
  type: "session.created",
  payload: {
    title: input.title,
    workspace: input.workspace,
    agent: input.agent,
    model: input.model,
    mode: input.mode,
    planSlug: input.planSlug ?? null,
    parentId: input.parentId ?? null,
    ...(input.parentCallId ? { parentCallId: input.parentCallId } : {}),
    ...(input.script ? { script: input.script } : {}),
    ...(input.externalId ? { externalId: input.externalId } : {}),
  },
});

/** Creates the session row and its first event (session.created) in one transaction. */
export async function createSession(
  db: Db,
  input: CreateSessionInput,
  then?: ThenAppend,
): Promise<{ id: string } & Appended> {
  const id = input.id ?? newId("ses");
  const at = new Date();
  const result = await withTransaction(db, async (run) => {
    await insertSession(run, {
      id,
      title: input.title,
      workspace: input.workspace,
      agent: input.agent,
      model: input.model,
      planSlug: input.planSlug ?? null,
      parentId: input.parentId ?? null,
      parentCallId: input.parentCallId ?? null,
      teamId: input.teamId ?? null,
      role: input.role ?? null,
      startedBy: input.starter?.startedBy ?? null,
      agentTokenId: input.starter?.agentTokenId ?? null,
      ...projectionColumns(emptyState, at),
      createdAt: at,
    });
    await assignSearchKey(run, id);
    const first = sessionCreated(input);
    const more = then ? then.events(planAppend(emptyState, [first], at).state) : [];
    // The row was just written with the empty state's projection: the append starts from it without reading it back.
    const appended = await appendEventsInTx(run, id, [first, ...more], emptyState);
    await then?.also(run, appended);
    return appended;
  });
  afterCommit(id, result);
  return { id, ...result };
}
