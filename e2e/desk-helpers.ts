// What the review desk's specs share (e2e/review-desk*.spec.ts): a session that enters plan mode and submits a
// plan, a hidden tab that records the notifications it shows, and a session's decision card.
import { expect, type Browser, type Page } from "@playwright/test";
import { call, exitPlan, openSession, say, scripted, waitForStatus } from "./helpers";

const WRITE = call("write", { path: "DESK.md", content: "desk\n" });

/** A session in `from` mode that enters plan mode with /plan and submits a plan for review. */
export async function reviewFrom(
  request: Parameters<typeof scripted>[0],
  from: string,
  plan = "# Plan\n\n1. write DESK.md\n",
) {
  const id = await scripted(request, [exitPlan(plan), WRITE, { text: "Desk done." }], { mode: from });
  await say(request, id, "/plan write the desk file");
  await waitForStatus(request, id, "awaiting_review");
  return id;
}

/** A browser context whose pages are hidden tabs with notifications allowed; each shown notification is recorded as "title | body". */
export async function hiddenTabContext(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, permissions: ["notifications"] });
  await context.addInitScript(() => {
    const shown: string[] = [];
    (window as unknown as { __shown: string[] }).__shown = shown;
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    const Real = window.Notification;
    class Recording extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push(`${title} | ${options?.body ?? ""}`);
      }
    }
    Object.defineProperty(Recording, "permission", { get: () => Real.permission });
    window.Notification = Recording as typeof Notification;
  });
  return context;
}

export const shownNotifications = (page: Page) =>
  page.evaluate(() => (window as unknown as { __shown: string[] }).__shown);

/** A session's page with its decision card showing. */
export async function card(page: Page, id: string) {
  await openSession(page, id);
  const c = page.getByTestId("decision-card");
  await expect(c).toBeVisible();
  return c;
}
