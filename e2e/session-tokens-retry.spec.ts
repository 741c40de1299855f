import { expect, test } from "@playwright/test";
import { createDb } from "../lib/db/client";
import { appendEvents } from "../lib/session/append-events";
import { scripted, waitForStatus, openTools } from "./helpers";

const db = createDb("file:./data/e2e/plangate.db");
test.afterAll(async () => {
  await db.$disconnect();
});

test("a failed model request shows a live retry countdown; tokens, a stopped message and an error-ended turn read in the timeline; Retry runs the turn again", async ({
  page,
  request,
}) => {
  // The scripted model plays step n at the session's n-th model call: the two logged below are steps 0 and 1.
  const id = await scripted(request, [{ text: "(step 0)" }, { text: "(step 1)" }, { text: "Answered on the retry." }], {
    mode: "default",
  });
  await page.goto(`/sessions/${id}`);
  await expect(page.getByTestId("composer")).toBeVisible();
  // A scripted model reports no tokens: nothing is shown rather than "0 tokens".
  await expect(page.getByTestId("session-usage")).toHaveCount(0);
  await expect(page.getByTestId("retry-banner")).toHaveCount(0);
  // Let the page's event stream connect before the log grows.
  await page.waitForTimeout(300);

  // The model provider's side of a turn, as the agent logs it (appended by another process: the page hears it live).
  const retryAt = new Date(Date.now() + 3_000).toISOString();
  await appendEvents(db, id, [
    { type: "turn.started", payload: { turnId: "t1" } },
    { type: "message.assistant", payload: { text: "Looking.", usage: { input: 1000, output: 50, cacheRead: 900 } } },
    {
      type: "model.retrying",
      payload: { turnId: "t1", attempt: 2, of: 5, retryAt, reason: "503 Service Unavailable" },
    },
  ]);
  const banner = page.getByTestId("retry-banner");
  await expect(banner).toContainText(
    /^The model provider failed \(503 Service Unavailable\); retrying in [1-3] s \(attempt 2 of 5\)$/,
    { timeout: 10_000 },
  );
  await expect(banner).toHaveAttribute("data-attempt", "2");
  await expect(banner).toHaveText(
    "The model provider failed (503 Service Unavailable); retrying now (attempt 2 of 5)",
    { timeout: 6_000 },
  );
  await expect(page.locator('[data-testid="timeline-item"][data-kind="retry"]')).toHaveText(
    /Retrying the model request \(attempt 2 of 5\): 503 Service Unavailable/,
  );
  await expect(page.getByTestId("step-usage")).toHaveText("1,000 in / 50 out tokens (900 cached)");

  await appendEvents(db, id, [
    { type: "message.assistant", payload: { text: "Half a thought", partial: true, usage: { input: 234, output: 6 } } },
    { type: "notice", payload: { level: "warning", text: "The model provider failed: 503 Service Unavailable" } },
    {
      type: "turn.ended",
      payload: { turnId: "t1", reason: "error", usage: { input: 1234, output: 56, cacheRead: 900 } },
    },
  ]);
  await expect(banner).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByTestId("status-badge")).toHaveAttribute("data-status", "interrupted");
  const partial = page.locator('[data-testid="timeline-item"][data-kind="assistant"]', { hasText: "Half a thought" });
  await expect(partial.getByTestId("partial-label")).toHaveText("partial — stopped");
  const ended = page.locator('[data-testid="timeline-item"][data-kind="turn"]').last();
  await expect(ended).toHaveText(/Turn ended: error · 1,234 in \/ 56 out tokens \(900 cached\)/);
  await expect(ended.getByTestId("turn-usage")).toHaveText("1,234 in / 56 out tokens (900 cached)");
  await expect(page.getByTestId("session-usage")).toHaveText("Tokens: 1,234 in / 56 out (900 cached)");
  await openTools(page);
  await page.getByTestId("session-history").locator("summary").first().click();
  await expect(page.getByTestId("history-usage")).toHaveText("Tokens: 1,234 in / 56 out (900 cached)");
  await expect(page.getByTestId("stopped-on-error")).toBeVisible();
  await expect(page.getByTestId("resume")).toHaveText("Retry");

  await page.getByTestId("resume").click();
  await expect(page.getByTestId("timeline")).toContainText("Answered on the retry.", { timeout: 15_000 });
  await waitForStatus(request, id, "idle");
  await expect(page.getByTestId("resume")).toHaveCount(0);
});
