// Runs after home.spec.ts (files run in name order, one worker): home asserts the empty state of a fresh database.
import { expect, test } from "@playwright/test";

const PLAN = "# Plan: notes\n\n| Step | File |\n| --- | --- |\n| 1 | NOTES.md |\n\n- [ ] write the note\n\n<script>window.__pwned = 1</script>\n<img src=x onerror=\"window.__pwned = 2\">\n[click](javascript:window.__pwned=3)\n";

test("a plan review is a decision card: Approve sends one decision and the agent executes", async ({ page, request }) => {
  const created = await request.post("/api/sessions", {
    data: {
      model: "scripted",
      mode: "plan",
      script: [{ toolCalls: [{ name: "exit_plan_mode", input: { plan: PLAN } }] }, { toolCalls: [{ name: "write", input: { path: "NOTES.md", content: "done\n" } }] }, { text: "All done." }],
    },
  });
  expect(created.status()).toBe(201);
  const id = (await created.json()).session.id as string;
  await request.post(`/api/sessions/${id}/messages`, { data: { text: "write notes" } });
  await expect.poll(async () => (await (await request.get(`/api/sessions/${id}`)).json()).state.status).toBe("awaiting_review");

  let dialogs = 0;
  page.on("dialog", (d) => {
    dialogs++;
    void d.dismiss();
  });
  await page.goto(`/sessions/${id}`);
  const card = page.getByTestId("decision-card");
  await expect(card).toBeVisible();
  await expect(card.getByRole("table")).toBeVisible();
  await expect(card.locator("script")).toHaveCount(0);
  await expect(card.locator("img[onerror]")).toHaveCount(0);
  await expect(card.locator('a[href^="javascript"]')).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Approve", exact: true })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/decision-card-desktop.png", fullPage: true });

  await card.getByTestId("approve").dblclick();
  await expect(page.getByTestId("composer")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("timeline")).toContainText("All done.", { timeout: 15_000 });
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "acceptEdits");
  const events = (await (await request.get(`/api/sessions/${id}/events`)).json()).events as { type: string }[];
  expect(events.filter((e) => e.type === "review.answered")).toHaveLength(1);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toBe(0);
});
