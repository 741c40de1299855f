// Lets an abort request reach a model call or command running in this process right away. Other processes
// learn of the abort from the log (the turn is closed there), so this is a fast path, not the mechanism.
const controllers = new Map<string, { turnId: string; controller: AbortController }>();

export function abortSignalFor(sessionId: string, turnId: string): AbortSignal {
  const current = controllers.get(sessionId);
  if (current && current.turnId === turnId && !current.controller.signal.aborted) return current.controller.signal;
  const controller = new AbortController();
  controllers.set(sessionId, { turnId, controller });
  return controller.signal;
}

export function abortLocal(sessionId: string): void {
  controllers.get(sessionId)?.controller.abort();
  controllers.delete(sessionId);
}

export function clearAbort(sessionId: string): void {
  controllers.delete(sessionId);
}

/** The turn whose model call or command may be running here for this session, if any. */
export function runningTurn(sessionId: string): string | null {
  const current = controllers.get(sessionId);
  return current && !current.controller.signal.aborted ? current.turnId : null;
}
