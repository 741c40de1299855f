import type { Db } from "../db/client";
import { getSession } from "../session/get-session";
import { readEvents } from "../db/session-log/read-events";
import { emptyView, extendView, rebuildFrom, seedView, type ConversationView } from "./conversation-view";

// Views of recently driven sessions, so the first step of the next turn does not re-read a long log. Bounded
// by count and by conversation size; a view that falls out is rebuilt from the log when next needed.
const MAX_VIEWS = 256;
const MAX_CHARS = 64 * 1024 * 1024;
const views = new Map<string, ConversationView>();

function size(v: ConversationView): number {
  return v.contextChars;
}

function keep(sessionId: string, view: ConversationView): void {
  views.delete(sessionId);
  views.set(sessionId, view);
  let total = 0;
  for (const v of views.values()) total += size(v);
  for (const [id, v] of views) {
    if (views.size <= MAX_VIEWS && total <= MAX_CHARS) break;
    if (id === sessionId) continue;
    views.delete(id);
    total -= size(v);
  }
}

/**
 * The session's view, brought up to date with what the log holds now: the cached view extended with the
 * events after it (the log is append-only, so a cached prefix stays true), or, on a miss, rebuilt from the
 * projection's state and the log from the last compaction on. The caller owns it until it calls releaseView
 * (one driver per session: the lease).
 */
export async function takeView(db: Db, sessionId: string): Promise<ConversationView> {
  const cached = views.get(sessionId);
  views.delete(sessionId);
  const view = cached ?? (await startView(db, sessionId));
  return extendView(view, await readEvents(db, sessionId, { after: view.lastSeq }));
}

async function startView(db: Db, sessionId: string): Promise<ConversationView> {
  const { state } = await getSession(db, sessionId);
  return rebuildFrom(state) === null ? emptyView() : seedView(state);
}

/** Hands the view back for the next drive of the session. */
export function releaseView(sessionId: string, view: ConversationView): void {
  keep(sessionId, view);
}

/** A deleted session's view goes with it. */
export function forgetView(sessionId: string): void {
  views.delete(sessionId);
}

/** What a freshly started process has: no views (each is rebuilt from the log when first needed). */
export function clearViews(): void {
  views.clear();
}
