import { expect, test } from "@playwright/test";
import { call, exitPlan, say, scripted, waitForStatus, approveVia } from "./helpers";

test("two tabs: a decision made in one shows in the other within a second; reload mid-review shows the same card", async ({
  browser,
  request,
}) => {
  const id = await scripted(request, [
    exitPlan("# Plan\n\n1. write NOTES.md"),
    call("write", { path: "NOTES.md", content: "x\n" }),
    { text: "Both tabs saw it." },
  ]);
  await say(request, id, "write notes");
  await waitForStatus(request, id, "awaiting_review");

  const one = await browser.newContext();
  const two = await browser.newContext();
  const a = await one.newPage();
  const b = await two.newPage();
  await a.goto(`/sessions/${id}`);
  await b.goto(`/sessions/${id}`);
  await expect(a.getByTestId("decision-card")).toBeVisible();
  await expect(b.getByTestId("decision-card")).toBeVisible();

  await b.reload();
  await expect(b.getByTestId("decision-card")).toBeVisible();
  await expect(b.getByTestId("plan-version")).toHaveText("version 1");
  // Both pages' event streams connected before deciding.
  for (const page of [a, b]) await expect(page.getByTestId("live-stream")).toHaveAttribute("data-state", "open");

  const answered = a.waitForResponse((r) => r.url().endsWith("/decision") && r.request().method() === "POST");
  await approveVia(a, "approve-accept-edits");
  await answered;
  const decidedAt = Date.now();
  // How fast is a figure to report, not a test's verdict (a loaded machine is slower): the other tab follows the event.
  await expect(b.getByTestId("decision-card")).toHaveCount(0, { timeout: 10_000 });
  const seenAfterMs = Date.now() - decidedAt;
  await expect(b.getByTestId("timeline")).toContainText("Both tabs saw it.", { timeout: 15_000 });
  console.log(`two tabs: the other tab dropped the card ${seenAfterMs} ms after the decision's response`);
  await one.close();
  await two.close();
});
