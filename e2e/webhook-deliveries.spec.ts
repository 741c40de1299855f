import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { exitPlan, say, waitForStatus, openTools, pendingReviewOf } from "./helpers";

// The delivery log in the browser: a workspace's own webhook to a host the server does not allow is logged as
// refused (never called), reachable from the session page; a delivery made while the page is open shows without a
// reload (pushed over the tab's change stream; nothing polls while every delivery shown is finished).
test("a plan review's webhook delivery shows in the log, refused for a host the server does not allow", async ({
  page,
  request,
}) => {
  const workspace = path.resolve("data/e2e/workspaces/webhook-log");
  fs.mkdirSync(path.join(workspace, ".plangate"), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, ".plangate/config.json"),
    JSON.stringify({ webhooks: [{ url: "http://hooks.example.invalid/plan" }] }),
  );
  // A person trusted this config (its hooks are not even considered before); the host is still not one the server allows.
  const shown = (await (
    await request.get(`/api/workspaces/trust?workspace=${encodeURIComponent(workspace)}`)
  ).json()) as { hash: string };
  expect((await request.post("/api/workspaces/trust", { data: { workspace, hash: shown.hash } })).status()).toBe(200);
  const res = await request.post("/api/sessions", {
    data: { model: "scripted", mode: "plan", workspace, script: [exitPlan("# Plan\n\n1. Log it\n")] },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { session: { id: string } }).session.id;
  await say(request, id, "plan it");
  await waitForStatus(request, id, "awaiting_review");

  await page.goto(`/sessions/${id}`);
  await openTools(page);
  await page.getByTestId("webhooks-link").click();
  await expect(page).toHaveURL(new RegExp(`/webhooks\\?sessionId=${id}`));
  const delivery = page.locator('[data-testid="webhook-delivery"][data-event="review.asked"]');
  await expect(async () => {
    await page.reload();
    await expect(delivery.first()).toBeVisible();
  }).toPass({ timeout: 15_000 });
  await expect(delivery.first()).toHaveAttribute("data-status", "refused");
  await expect(delivery.first().getByTestId("webhook-url")).toContainText("hooks.example.invalid");
  await expect(delivery.first().getByTestId("webhook-error")).toContainText("not in PLANGATE_WEBHOOK_HOSTS");
  await expect(delivery.first().getByTestId("webhook-attempt")).toHaveCount(0);

  const decided = await request.post(`/api/reviews/${await pendingReviewOf(request, id)}/decision`, {
    data: { decision: "reject", feedback: "Log it twice." },
  });
  expect(decided.status()).toBe(200);
  await expect(page.locator('[data-testid="webhook-delivery"][data-event="review.decided"]')).toHaveAttribute(
    "data-status",
    "refused",
    { timeout: 10_000 },
  );
});
