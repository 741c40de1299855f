/** Pure: a wait in words for a person: seconds under two minutes, then minutes, then hours (rounded up). */
export function waitWords(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (s < 120) return unit(s, "second");
  if (s < 120 * 60) return unit(Math.ceil(s / 60), "minute");
  return unit(Math.ceil(s / 3600), "hour");
}

/** Pure: what a refused attempt is told (the sign-in page shows it as it is). */
export function tooManyMessage(what: string, retryAfterSeconds: number): string {
  return `Too many ${what}; try again in ${waitWords(retryAfterSeconds)}.`;
}
