import { expect, type APIRequestContext, type Locator, type Page, test } from "@playwright/test";
import { call, exitPlan, say, scripted, waitForStatus } from "./helpers";

// Issue 42, point 7: menus open where they fit, no doubled "Plan:", icons that need no font, no literal backticks,
// and one small notification offer instead of one in every card.
const LONG_PLAN = `# Plan: Add a todo list\n\n${Array.from({ length: 30 }, (_, i) => `${i + 1}. step ${i + 1} of the todo list`).join("\n")}\n`;

async function longReview(request: APIRequestContext, title: string) {
  const id = await scripted(request, [exitPlan(LONG_PLAN)], { mode: "default", title });
  await say(request, id, "/plan the todo list");
  await waitForStatus(request, id, "awaiting_review");
  return id;
}

async function inside(page: Page, items: Locator, size: { width: number; height: number }) {
  const n = await items.count();
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) {
    const item = items.nth(i);
    await expect(item).toBeVisible();
    const box = await item.boundingBox();
    if (!box) throw new Error(`menu item ${i} has no box`);
    const where = `${await item.textContent()}: ${JSON.stringify(box)} in ${size.width}x${size.height}`;
    expect(box.x, where).toBeGreaterThanOrEqual(0);
    expect(box.y, where).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, where).toBeLessThanOrEqual(size.width);
    expect(box.y + box.height, where).toBeLessThanOrEqual(size.height);
    // Nothing else covers it: the point at its middle belongs to the item.
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x as number, y as number)?.closest("[role=menuitem]")?.textContent ?? null,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(hit, where).toBe(await item.textContent());
  }
}

for (const size of [
  { width: 1280, height: 720 },
  { width: 1280, height: 757 },
  { width: 390, height: 844 },
]) {
  test(`Approve ▾ and More… open where every option fits at ${size.width}x${size.height}`, async ({
    page,
    request,
  }) => {
    const id = await longReview(request, `Menus ${size.width}x${size.height}`);
    await page.setViewportSize(size);
    await page.goto(`/sessions/${id}`);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const card = page.getByTestId("decision-card");
    // The action row as a person meets it: at the bottom edge of the window, the plan above it.
    await card.getByTestId("approve").scrollIntoViewIfNeeded();
    const row = await card.getByTestId("decision-actions").boundingBox();
    if (!row) throw new Error("no action row");
    expect(row.y + row.height).toBeGreaterThan(size.height - 120);

    await card.getByTestId("approve-options").click();
    const approveMenu = page.getByTestId("approve-options-menu");
    await expect(approveMenu).toHaveAttribute("data-placement", "up");
    await expect(approveMenu.getByRole("menuitem")).toHaveCount(3);
    await inside(page, approveMenu.getByRole("menuitem"), size);
    await expect(approveMenu).toContainText("auto mode");
    await page.keyboard.press("Escape");
    await expect(approveMenu).toHaveCount(0);

    await card.getByTestId("more-actions").click();
    const more = page.getByTestId("more-actions-menu");
    await expect(more).toHaveAttribute("data-placement", "up");
    await inside(page, more.getByRole("menuitem"), size);
    await expect(more).toContainText("Edit plan");
    await page.keyboard.press("Escape");
  });
}

test("the desk reads “Plan: Add a todo list”, never “Plan: Plan: …”", async ({ page, request }) => {
  await longReview(request, "Desk title");
  await page.goto("/desk");
  const item = page.getByTestId("desk-item").filter({ hasText: "Add a todo list" }).first();
  await expect(item).toContainText("Plan: Add a todo list");
  await expect(page.getByTestId("desk-list")).not.toContainText("Plan: Plan:");
  await item.click();
  await expect(page.getByTestId("desk-open")).toContainText("Add a todo list");
  await expect(page.getByTestId("desk-open")).not.toContainText("Plan: Plan:");
});

test("tool status and other icons are inline SVG, not glyphs a font may lack", async ({ page, request }) => {
  const id = await longReview(request, "Icons");
  await page.goto(`/sessions/${id}`);
  const tool = page.locator('[data-testid="timeline-item"][data-tool="exit_plan_mode"]');
  await expect(tool).toHaveCount(1);
  const status = tool.getByTestId("tool-status");
  await expect(status.locator("svg[data-icon]")).toHaveCount(1);
  await expect(status.getByRole("img")).toHaveAccessibleName("waiting");
  const glyphs = /[⏸✓↩✕↺▾⚠▍]/;
  expect(await tool.locator("summary").textContent()).not.toMatch(glyphs);
  await expect(page.getByTestId("select-event").first().locator("svg[data-icon=replay]")).toHaveCount(1);
  await expect(page.getByTestId("approve-options").locator("svg[data-icon=down]")).toHaveCount(1);
  expect(await page.locator("main").textContent()).not.toMatch(glyphs);
});

test("the permission card shows the path as code, never literal backticks", async ({ page, request }) => {
  const id = await scripted(
    request,
    [call("write", { path: "src/todo.ts", content: "export const todo = 1;\n" }), { text: "Written." }],
    { mode: "default" },
  );
  await say(request, id, "write the todo file");
  await waitForStatus(request, id, "awaiting_permission");
  await page.goto(`/sessions/${id}`);
  const saves = page.getByTestId("permission-card").getByTestId("always-saves");
  await expect(saves).toContainText("Allow always saves: Write src/todo.ts");
  await expect(saves).not.toContainText("`");
  await expect(saves.locator("code")).toHaveText(["src/todo.ts"]);
  expect(await page.getByTestId("permission-card").textContent()).not.toContain("`");
});

test("one small notification offer per page, outside the card, and “not now” keeps it hidden", async ({
  page,
  request,
}) => {
  const id = await longReview(request, "Notify");
  await page.goto(`/sessions/${id}`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const offer = page.getByTestId("notify-opt-in");
  await expect(offer).toHaveCount(1);
  await expect(offer).toBeVisible();
  await expect(page.getByTestId("decision-card").getByTestId("notify-opt-in")).toHaveCount(0);
  const box = await offer.boundingBox();
  expect(box?.height ?? 100).toBeLessThanOrEqual(32);
  await offer.getByTestId("notify-dismiss").click();
  await expect(offer).toHaveCount(0);
  await page.reload();
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await expect(page.getByTestId("decision-card")).toBeVisible();
  await expect(page.getByTestId("notify-opt-in")).toHaveCount(0);
  await page.goto("/desk");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await expect(page.getByTestId("notify-opt-in")).toHaveCount(0);
});
