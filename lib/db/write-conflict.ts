import { retry } from "../retry";

const CONFLICT_KINDS = new Set(["UniqueConstraintViolation", "TransactionWriteConflict"]);

/** Errors that mean "someone else wrote first": re-read and try again. */
export function isWriteConflict(error: unknown, depth = 0): boolean {
  if (error instanceof WriteConflict) return true;
  if (typeof error !== "object" || error === null || depth > 4) return false;
  const e = error as {
    code?: unknown;
    message?: unknown;
    cause?: { kind?: unknown; originalCode?: unknown } | unknown;
  };
  if (e.code === "P2002" || e.code === "P2034") return true;
  const cause = (typeof e.cause === "object" && e.cause !== null ? e.cause : {}) as {
    kind?: unknown;
    originalCode?: unknown;
  };
  if (typeof cause.kind === "string" && CONFLICT_KINDS.has(cause.kind)) return true;
  // SQLite answers BUSY when a deferred transaction cannot upgrade to a writer because another process committed.
  if (typeof cause.originalCode === "string" && cause.originalCode.startsWith("SQLITE_BUSY")) return true;
  const message = typeof e.message === "string" ? e.message : "";
  if (/SQLITE_BUSY|database is locked|could not serialize|deadlock detected/i.test(message)) return true;
  return e.cause !== undefined && e.cause !== error ? isWriteConflict(e.cause, depth + 1) : false;
}

export class WriteConflict extends Error {
  override name = "WriteConflict";
}

/**
 * Runs fn until it commits without a write conflict (or another failure `alsoRetry` names); the jittered backoff
 * keeps contenders from colliding again.
 */
export function withConflictRetry<T>(
  fn: (attempt: number) => Promise<T>,
  attempts = 200,
  alsoRetry: (error: unknown) => boolean = () => false,
): Promise<T> {
  return retry(fn, {
    attempts,
    backoff: { baseMs: 1, maxMs: 50 },
    retryable: (error) => isWriteConflict(error) || alsoRetry(error),
  });
}
