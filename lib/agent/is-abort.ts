/**
 * Whether a turn's failure is its abort: the turn's signal fired (whatever the interrupted call threw then), or
 * the error is an AbortError. Never judged by the message: PostgreSQL's "current transaction is aborted,
 * commands ignored until end of transaction block" is a database failure, and must fail the turn as one.
 */
export function isAbort(error: unknown, signal?: AbortSignal | null): boolean {
  if (signal?.aborted === true) return true;
  return (error instanceof Error || error instanceof DOMException) && error.name === "AbortError";
}
