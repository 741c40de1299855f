import { expect, test } from "@playwright/test";
import { exitPlan, pendingReviewOf, say, scripted, waitForStatus } from "./helpers";

// Issue 41 in the browser: the sign-in page says when to try again once an account's wrong passwords reach the
// limit; a session imported from a file reads its decisions as the file's claim, never as someone's signature.

test("after ten wrong passwords for one email the sign-in page says how long to wait", async ({ browser, baseURL }) => {
  // No operator header here: this browser is a person at the sign-in page.
  const person = await browser.newContext({ baseURL: baseURL ?? "", extraHTTPHeaders: {} });
  const page = await person.newPage();
  await page.goto("/sign-in");
  await page.getByTestId("credentials-email").fill("guessed@example.com");
  for (let i = 0; i < 10; i++) {
    await page.getByTestId("credentials-password").fill(`wrong guess number ${i}`);
    await page.getByTestId("credentials-submit").click();
    await expect(page.getByTestId("credentials-error")).toContainText("do not match");
    await expect(page.getByTestId("credentials-submit")).toBeEnabled();
  }
  await page.getByTestId("credentials-password").fill("wrong guess number 10");
  await page.getByTestId("credentials-submit").click();
  await expect(page.getByTestId("credentials-error")).toContainText(
    /Too many sign-in attempts; try again in \d+ (seconds|minutes)\./,
  );
  await person.close();
});

type Exported = { events: { seq: number; type: string; payload: Record<string, unknown> }[] };

test("an imported session's timeline words the file's approval as its claim", async ({ page, request }) => {
  const id = await scripted(request, [exitPlan("# Plan\n\n1. Write notes.md\n"), { text: "Done." }]);
  await say(request, id, "plan it");
  await waitForStatus(request, id, "awaiting_review");
  const decided = await request.post(`/api/reviews/${await pendingReviewOf(request, id)}/decision`, {
    data: { decision: "approve" },
  });
  expect(decided.status()).toBe(200);
  const file = (await (await request.get(`/api/sessions/${id}/export?format=json`)).json()) as Exported;
  for (const e of file.events) if (typeof e.payload.by === "string") e.payload.by = "Olivia Owner";
  const imported = await request.post("/api/sessions/import", { data: file });
  expect(imported.status(), await imported.text()).toBe(201);
  const copy = ((await imported.json()) as { session: { id: string } }).session.id;

  await page.goto(`/sessions/${copy}`);
  const timeline = page.getByTestId("timeline");
  await expect(timeline).toContainText("Imported: the file says plan approved by Olivia Owner");
  await expect(timeline).toContainText("Imported from a file by operator");
  await expect(timeline).not.toContainText("Plan approved by Olivia");
});
