import type { NewEvent } from "./events";

/*
 * Issue 41: an import is the importer's act. A file may say anything about who decided what; nobody here signed
 * it. So on import every signed event (a plan decision, a policy approval, an ask's reply, a question's answer)
 * loses its `by`, which is kept only as `claimedBy`, and is marked `imported`, and so is every notice (the
 * server's voice in the timeline). Readers then word them as the file's claim, never as a signature.
 */

/** Pure: the event as an imported file's claim (other events unchanged). */
export function asClaim<E extends NewEvent>(event: E): E {
  switch (event.type) {
    case "review.answered":
    case "review.approved":
    case "permission.replied": {
      const { by, claimedBy, ...rest } = event.payload;
      const claimed = by ?? claimedBy;
      return {
        ...event,
        payload: { ...rest, imported: true, ...(claimed !== undefined ? { claimedBy: claimed } : {}) },
      };
    }
    case "notice":
      return { ...event, payload: { ...event.payload, imported: true } };
    default:
      return event;
  }
}

/** How many of these events carry a claim about a signer (for the import's audit entry). */
export function countClaims(events: readonly NewEvent[]): number {
  return events.filter((e) => "claimedBy" in e.payload && e.payload.claimedBy !== undefined).length;
}

/**
 * Pure: a timeline line for a signed act: "<what> by <who>" when someone here signed it, "Imported: the file says
 * <what> by <who>" when it came in a file. `who` is the signer, or the file's claimed signer.
 */
export function signedLine(
  what: string,
  payload: { by?: string; claimedBy?: string; imported?: true },
  rest = "",
): string {
  if (!payload.imported) return `${what}${payload.by ? ` by ${payload.by}` : ""}${rest}`;
  return claimLine(`${what}${payload.claimedBy ? ` by ${payload.claimedBy}` : ""}${rest}`);
}

/** Pure: a line an imported file says, worded as its claim. */
export function claimLine(text: string): string {
  return `Imported: the file says ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}
