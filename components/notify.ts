/** What a new event asks of a person, in words for a notification; null when it asks nothing. */
export function waitingFor(event: {
  type?: string;
  payload?: { kind?: string; tool?: string; reviewId?: string };
}): string | null {
  if (event.type === "review.asked")
    return event.payload?.kind === "plan-review" ? "A plan is awaiting your review" : "The agent asks you a question";
  if (event.type === "permission.asked") return `The agent asks to use ${event.payload?.tool ?? "a tool"}`;
  return null;
}

/** A browser notification for a decision that arrived while the tab was hidden (only once the person allowed them). */
export function notifyIfHidden(text: string, title: string): void {
  if (
    typeof Notification === "undefined" ||
    Notification.permission !== "granted" ||
    document.visibilityState !== "hidden"
  )
    return;
  new Notification(text, { body: title, tag: `plangate-${title}` });
}
