import pLimit, { type LimitFunction } from "p-limit";

// A verification walks the workspace, may run its verify command and ask a model. A burst of approvals ends as many
// turns at once; run together, their verifications held up the requests the server was answering (issue 43). So a
// few run at a time, after the turn's answer, and a session waits in the queue once.
const AT_ONCE = 2;

// On globalThis, as the session bus: Next may load this module once per bundle, and the limit is the process's.
const shared = globalThis as unknown as { plangateVerifying?: { limit: LimitFunction; waiting: Set<string> } };
const queue = (shared.plangateVerifying ??= { limit: pLimit(AT_ONCE), waiting: new Set() });

/** Runs `verify` when a place is free; a session already waiting is not queued twice (its turn will be verified). */
export function queueVerification(sessionId: string, verify: () => Promise<unknown>): void {
  if (queue.waiting.has(sessionId)) return;
  queue.waiting.add(sessionId);
  void queue
    .limit(() => {
      queue.waiting.delete(sessionId);
      return verify();
    })
    .catch((error: unknown) => console.error(`plangate: verifying ${sessionId} failed`, error));
}
