import { expect, test } from "@playwright/test";
import { createDb } from "../lib/db/client";
import { appendEvents } from "../lib/session/append-events";
import { createSession } from "../lib/session/create-session";

const db = createDb("file:./data/e2e/plangate.db");

test.afterAll(async () => {
  await db.$disconnect();
});

test("health route answers on loopback", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  expect(await res.json()).toMatchObject({ ok: true, database: "ok" });
});

test("a cross-origin state-changing request is refused before the route runs, and changes nothing", async ({
  request,
}) => {
  const title = `cross-origin ${Date.now()}`;
  const res = await request.post("/api/sessions", {
    headers: { origin: "http://evil.example" },
    data: { title, workspace: "." },
  });
  expect(res.status()).toBe(403);
  expect(await res.json()).toMatchObject({ error: { code: "origin_rejected" } });
  // The API's answers carry the same refusals of framing and sniffing as the pages.
  expect(res.headers()["x-frame-options"]).toBe("DENY");
  expect(res.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  const listed = await request.get(`/api/sessions?q=${encodeURIComponent(title)}`);
  expect((await listed.json()).sessions).toEqual([]);
});

test("a page on another origin cannot frame Plangate, and Plangate's own pages run no script the CSP refuses", async ({
  page,
  baseURL,
}) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  expect(violations).toEqual([]);
  // A cross-origin page (a data: URL) frames the home page: the browser refuses to render it.
  await page.goto(`data:text/html,<iframe id="f" src="${baseURL}/" width="800" height="600"></iframe>`);
  const frame = page.frameLocator("#f");
  await page.waitForTimeout(1_000);
  await expect(frame.getByRole("heading", { level: 1 })).toHaveCount(0);
});

test("home page shows the empty state, then lists sessions with their status", async ({ page }) => {
  // Specs before this one (the desk's) leave sessions; the empty state needs none (the suite runs one at a time).
  await db.session.deleteMany();
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Sessions" })).toBeVisible();
  await expect(page.getByTestId("sessions-empty")).toContainText("No sessions yet");

  const reviewing = await createSession(db, {
    title: "Add pagination",
    workspace: "/tmp/ws",
    agent: "build",
    model: "offline",
    mode: "default",
  });
  await appendEvents(db, reviewing.id, [
    { type: "turn.started", payload: { turnId: "t1" } },
    { type: "mode.changed", payload: { from: "default", to: "plan", prePlanMode: "default", cause: "tool" } },
    { type: "review.asked", payload: { reviewId: "rev_1", kind: "plan-review" } },
  ]);
  const asking = await createSession(db, {
    title: "Fix the build",
    workspace: "/tmp/ws",
    agent: "build",
    model: "offline",
    mode: "default",
  });
  await appendEvents(db, asking.id, [
    { type: "turn.started", payload: { turnId: "t2" } },
    {
      type: "permission.asked",
      payload: { requestId: "per_1", tool: "bash", permission: "bash", patterns: ["npm test"] },
    },
  ]);

  await page.reload();
  // Both wait on a person: they come first, under their own heading, with what they wait for.
  const waiting = page.getByTestId("waiting-sessions");
  await expect(waiting.getByTestId("session-row")).toHaveCount(2);
  await expect(waiting).toContainText("Waiting for permission");
  await expect(waiting).toContainText("Plan awaiting review");
  const rows = page.getByTestId("session-list").last().getByTestId("session-row");
  await expect(rows).toHaveCount(2);
  // Newest activity first.
  await expect(rows.nth(0)).toContainText("Fix the build");
  await expect(rows.nth(0)).toContainText("Waiting for permission");
  await expect(rows.nth(1)).toContainText("Add pagination");
  await expect(rows.nth(1)).toContainText("Plan awaiting review");
  // The mode in words, never the raw value.
  await expect(rows.nth(1)).toContainText("build · Plan");
  await page.screenshot({ path: "e2e/screenshots/home.png", fullPage: true });
});

test("new session from the home page: title, workspace, agent, model; the offline model plans and the card appears", async ({
  page,
}) => {
  await page.goto("/");
  const form = page.getByTestId("new-session-form");
  await form.getByTestId("new-title").fill("Try the sample");
  await expect(form.getByTestId("new-workspace")).toContainText("sample");
  await form.getByTestId("new-workspace").selectOption({
    label:
      (await form.getByTestId("new-workspace").locator("option", { hasText: "sample" }).first().textContent()) ?? "",
  });
  await form.getByTestId("new-agent").selectOption("build");
  await expect(form.getByTestId("new-model")).toHaveValue("offline");
  await expect(form.getByTestId("new-plan")).toBeChecked();
  await form.getByTestId("create-session").click();
  await expect(page).toHaveURL(/\/sessions\/ses_/);
  await expect(page.getByRole("heading", { name: "Try the sample" })).toBeVisible();
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "plan");

  // The offline demo plans what was asked, from what it read: the function, in the file that holds the store.
  await page.getByTestId("composer-input").fill("Add a function countDone to src/todo.js");
  await page.getByTestId("composer-input").press("Enter");
  const card = page.getByTestId("decision-card");
  await expect(card).toBeVisible({ timeout: 20_000 });
  await expect(card.getByTestId("plan-markdown")).toContainText("Add the function countDone to src/todo.js");
  await expect(page.getByTestId("timeline").locator('[data-kind="tool"]').first()).toBeVisible();
  await card.getByTestId("approve-options").click();
  await card.getByTestId("approve-accept-edits").click();
  const report = page
    .locator('[data-testid="timeline-item"][data-kind="verification"]')
    .getByTestId("verification-report");
  // The sample's verify command waits for the person's trust: until then the demo's change is not checked.
  await expect(report).toHaveAttribute("data-status", "unverified", { timeout: 20_000 });

  await page.goto("/");
  await page.getByTestId("new-model").fill("nonsense:");
  await page.getByTestId("create-session").click();
  await expect(page.getByTestId("new-session-error")).toContainText("model");
  await expect(page).toHaveURL(/\/$/);
});
