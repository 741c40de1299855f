import { MAX_OUTPUT_CHARS } from "./types";

function note(omitted: number): string {
  return `\n… [truncated: ${omitted} more characters; narrow the request (offset/limit, a path or a pattern)] …`;
}

/**
 * Keeps the head of an over-long output and says how much was left out, so the
 * model knows to narrow its request rather than assume it saw everything. The
 * result, note included, stays within `max` (unless `max` is smaller than the note).
 */
export function truncateOutput(text: string, max: number = MAX_OUTPUT_CHARS): string {
  if (text.length <= max) return text;
  // The note's length depends on the count it reports; sizing it for the whole text is an upper bound.
  const budget = Math.max(0, max - note(text.length).length);
  let end = budget;
  const newline = text.lastIndexOf("\n", end - 1);
  // A line boundary is worth a little lost text, not half the budget.
  if (newline >= 0 && newline >= budget / 2) end = newline;
  // Never split a surrogate pair: half an emoji is not valid text.
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + note(text.length - end);
}
