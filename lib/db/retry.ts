/** Errors that mean "someone else wrote first": re-read and try again. */
export function isWriteConflict(error: unknown): boolean {
  if (error instanceof WriteConflict) return true;
  if (typeof error !== "object" || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (e.code === "P2002" || e.code === "P2034") return true;
  const message = typeof e.message === "string" ? e.message : "";
  if (/SQLITE_BUSY|database is locked|UniqueConstraintViolation|could not serialize|deadlock detected/i.test(message)) return true;
  return e.cause !== undefined && e.cause !== error ? isWriteConflict(e.cause) : false;
}

export class WriteConflict extends Error {
  override name = "WriteConflict";
}

/** Runs fn until it commits without a write conflict; the jittered backoff keeps contenders from colliding again. */
export async function withConflictRetry<T>(fn: (attempt: number) => Promise<T>, attempts = 100): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (!isWriteConflict(error) || attempt >= attempts - 1) throw error;
      if (attempt > 2) await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 ** attempt)));
    }
  }
}
