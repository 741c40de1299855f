import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import { blockAt, exitPlan, openTools, say, scripted, waitForStatus } from "./helpers";

// Issue 42, point 8: the session page shows the work first; every tool it had is still one menu away.
async function review(request: APIRequestContext, title: string) {
  const id = await scripted(request, [exitPlan("# Plan\n\nSome context first.\n\n1. write **TOOLS.md** now\n")], {
    mode: "default",
    title,
  });
  await say(request, id, "/plan the tools file");
  await waitForStatus(request, id, "awaiting_review");
  return id;
}

async function open(page: Page, id: string) {
  await page.goto(`/sessions/${id}`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
}

const TOOLS = [
  "export-md",
  "export-json",
  "webhooks-link",
  "workspace-settings-link",
  "plan-path",
  "start-team",
  "jump-to",
  "session-history",
  "delete-session",
] as const;

test("timeline, card and composer come first; every tool is reachable from one menu, Delete apart and confirmed", async ({
  page,
  request,
}) => {
  const id = await review(request, "Work first");
  await open(page, id);
  // The work: the timeline and the card, in view; none of the tools on the page until the menu opens.
  await expect(page.getByTestId("timeline")).toBeVisible();
  await expect(page.getByTestId("decision-card")).toBeVisible();
  for (const tool of TOOLS) await expect(page.getByTestId(tool), tool).toBeHidden();
  const order = await page.evaluate(() => {
    const at = (sel: string) => {
      const el = document.querySelector(sel);
      return el ? [...document.querySelectorAll("main *")].indexOf(el) : -1;
    };
    return { timeline: at("[data-testid=timeline]"), card: at("[data-testid=decision-card]") };
  });
  expect(order.timeline).toBeGreaterThan(0);
  expect(order.card).toBeGreaterThan(order.timeline);

  await page.getByTestId("session-tools-toggle").click();
  const panel = page.getByTestId("session-tools-panel");
  for (const tool of TOOLS) await expect(panel.getByTestId(tool), tool).toBeVisible();
  await expect(panel.getByTestId("plan-path")).toContainText(".md");
  await expect(panel.getByTestId("export-md")).toHaveAttribute("href", new RegExp(`/api/sessions/${id}/export`));
  // Delete sits apart from Export, at the other end of the menu.
  const exportBox = await panel.getByTestId("export-json").boundingBox();
  const deleteBox = await panel.getByTestId("delete-session").boundingBox();
  if (!exportBox || !deleteBox) throw new Error("no boxes");
  expect(deleteBox.y).toBeGreaterThan(exportBox.y + exportBox.height + 40);

  // History and "Go to event #" work from the menu.
  await panel.getByTestId("session-history").locator("summary").first().click();
  await expect(panel.getByTestId("plan-version-row")).toHaveCount(1);
  await panel.getByTestId("jump-to").fill("0");
  await panel.getByTestId("jump-to").press("Enter");
  await expect(panel.getByTestId("jump-error")).toContainText("Give an event number from 1 to");
  await panel.getByTestId("jump-to").fill("1");
  await panel.getByTestId("jump-to").press("Enter");
  await expect(page.getByTestId("replay-panel")).toHaveAttribute("data-seq", "1");
  await expect(panel).toBeHidden();

  // Delete asks first; "Keep it" keeps it.
  await page.getByTestId("session-tools-toggle").click();
  await panel.getByTestId("delete-session").click();
  await expect(panel.getByRole("group", { name: "Confirm delete" })).toContainText("Delete “Work first”");
  await panel.getByRole("button", { name: "Keep it" }).click();
  expect((await request.get(`/api/sessions/${id}`)).status()).toBe(200);
  // A session with a turn open (its plan waits) is not deleted: the menu says why, and it stays.
  await panel.getByTestId("delete-session").click();
  await panel.getByTestId("confirm-delete").click();
  await expect(panel.getByRole("alert")).toContainText("stop it before deleting");
  expect((await request.get(`/api/sessions/${id}`)).status()).toBe(200);
});

test("the webhook deliveries and Lead a team tools still lead where they did", async ({ page, request }) => {
  const id = await review(request, "Tools lead");
  await open(page, id);
  await page.getByTestId("session-tools-toggle").click();
  await page.getByTestId("webhooks-link").click();
  await expect(page).toHaveURL(new RegExp(`/webhooks\\?sessionId=${id}`));
  await open(page, id);
  await page.getByTestId("session-tools-toggle").click();
  await page.getByTestId("start-team").click();
  await expect(page).toHaveURL(/\/team\//);
});

test("replay is labelled with a 24 px target; blocks are named by their words; no internal ids in the timeline", async ({
  page,
  request,
}) => {
  const id = await review(request, "Words");
  await open(page, id);
  const replay = page.getByTestId("select-event").first();
  await expect(replay).toHaveAccessibleName("Replay from here");
  await expect(replay).toContainText("Replay from here");
  const box = await replay.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(24);
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(24);

  const card = page.getByTestId("decision-card");
  const block = await blockAt(card, 5);
  await expect(block.getByTestId("comment-block")).toHaveAccessibleName("Comment on “write TOOLS.md now”");
  await block.getByTestId("comment-block").click();
  await expect(card.getByText("Comment on “write TOOLS.md now”")).toBeVisible();
  await card.getByTestId("line-comment").fill("Shorter.");
  await card.getByTestId("add-comment").click();
  await expect(card.getByTestId("pending-comment")).toContainText("Your comment on “write TOOLS.md now”");
  expect(await card.textContent()).not.toMatch(/\blines? \d/);
  // The log's ids ("request rev_…", "ses_…") are never words on the page.
  expect(await page.getByTestId("timeline").textContent()).not.toMatch(/\b[a-z]{3}_[0-9a-z]{12,}\b/);
});

test("the composer's hint and the new-session words agree with the mode", async ({ page, request }) => {
  const planning = await scripted(request, [{ text: "ok" }], { mode: "plan", title: "Hint in plan mode" });
  await open(page, planning);
  const input = page.getByTestId("composer-input");
  await expect(input).toHaveAttribute("placeholder", /In plan mode/);
  expect(await input.getAttribute("placeholder")).not.toContain("/plan to plan first");

  const asking = await scripted(request, [{ text: "ok" }], { mode: "default", title: "Hint in ask mode" });
  await open(page, asking);
  await expect(page.getByTestId("composer-input")).toHaveAttribute("placeholder", "Ask, or /plan to plan first");
  // An idle session is deleted from the tools menu, once confirmed.
  const tools = await openTools(page);
  await tools.getByTestId("delete-session").click();
  await tools.getByTestId("confirm-delete").click();
  await expect(page).toHaveURL(/\/$/);
  expect((await request.get(`/api/sessions/${asking}`)).status()).toBe(404);

  await page.goto("/");
  const form = page.getByTestId("new-session-form");
  await expect(form.getByTestId("new-agent").locator("option[value=build]")).toContainText("does the work");
  await expect(form.getByTestId("new-agent").locator("option[value=plan]")).toContainText("never edits");
  await expect(form.getByTestId("agent-vs-plan-mode")).toContainText(
    "Plan mode is a phase Plangate enforces for any agent",
  );
  await expect(form.getByTestId("new-plan")).toHaveAccessibleDescription(/Plan mode is a phase/);
});
