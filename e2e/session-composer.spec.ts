import { expect, test } from "@playwright/test";
import { createDb } from "../lib/db/client";
import { appendEvents } from "../lib/session/append-events";
import type { NewEvent } from "../lib/session/log/events";
import { call, eventsOf, scripted, stateOf, waitForStatus } from "./helpers";

const db = createDb("file:./data/e2e/plangate.db");
test.afterAll(async () => {
  await db.$disconnect();
});

test("composer: /plan completion, /plan and /plan off, Shift+Tab cycling, and the Plan × chip", async ({
  page,
  request,
}) => {
  const id = await scripted(request, [{ text: "Hello." }], { mode: "default" });
  await page.goto(`/sessions/${id}`);
  const input = page.getByTestId("composer-input");
  const chip = page.getByTestId("mode-chip");
  await expect(chip).toHaveAttribute("data-mode", "default");

  await input.fill("/pl");
  await expect(page.getByTestId("command-option")).toHaveCount(3);
  await input.press("Tab");
  await expect(input).toHaveValue("/plan");
  await input.press("Enter");
  await expect(chip).toHaveAttribute("data-mode", "plan");
  await expect(page.getByTestId("composer-status")).toHaveText("/plan: now");

  await input.fill("/plan o");
  await expect(page.getByTestId("command-option")).toHaveText([/\/plan off/]);
  await input.press("Tab");
  await input.press("Enter");
  await expect(chip).toHaveAttribute("data-mode", "default");

  await input.press("Shift+Tab");
  await expect(chip).toHaveAttribute("data-mode", "acceptEdits");
  await input.press("Shift+Tab");
  await expect(chip).toHaveAttribute("data-mode", "plan");
  await expect(chip).toContainText("Plan");
  await page.getByRole("button", { name: "Leave plan mode" }).click();
  // Leaving plan mode restores the mode it was entered from.
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "acceptEdits");

  // The chip itself: a click opens the mode menu and changes nothing; a mode picked there applies; × leaves plan mode.
  await page.getByTestId("mode-chip").click();
  await expect(page.getByTestId("mode-menu")).toHaveAttribute("open");
  await expect(page.getByTestId("mode-option-default")).toBeFocused();
  expect((await stateOf(request, id)).mode).toBe("acceptEdits");
  await page.getByTestId("mode-option-plan").click();
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "plan");
  await page.getByTestId("plan-chip-exit").click();
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "acceptEdits");

  const modes = (await eventsOf(request, id))
    .filter((e) => e.type === "mode.changed")
    .map((e) => `${e.payload.from}>${e.payload.to}:${e.payload.cause}`);
  expect(modes).toEqual([
    "default>plan:command",
    "plan>default:command",
    "default>acceptEdits:user",
    "acceptEdits>plan:user",
    "plan>acceptEdits:command",
    "acceptEdits>plan:user",
    "plan>acceptEdits:command",
  ]);
});

test("while a turn runs, a message and a /plan are queued; the queued mode applies at the next step", async ({
  page,
  request,
}) => {
  const id = await scripted(
    request,
    [call("bash", { command: "touch queued.txt" }), call("read", { path: "queued.txt" }), { text: "Finished." }],
    { mode: "default" },
  );
  await page.goto(`/sessions/${id}`);
  await page.getByTestId("composer-input").fill("start");
  await page.getByTestId("composer-input").press("Enter");
  await expect(page.getByTestId("permission-card")).toBeVisible({ timeout: 15_000 });

  await expect(page.getByTestId("send")).toHaveText("Queue");
  await page.getByTestId("composer-input").fill("also check the README");
  await page.getByTestId("send").click();
  await expect(page.getByTestId("composer-status")).toHaveText("Queued: the agent reads it at its next step");
  await page.getByTestId("composer-input").fill("/plan");
  await page.getByTestId("composer-input").press("Enter");
  await expect(page.getByTestId("composer-status")).toHaveText("/plan: at the next step (a turn is running)");
  await expect(page.getByTestId("mode-pending")).toHaveAttribute("data-mode", "plan");
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "default");

  await page.getByTestId("allow-once").click();
  await expect(page.getByTestId("mode-chip")).toHaveAttribute("data-mode", "plan", { timeout: 15_000 });
  await expect(page.getByTestId("mode-pending")).toHaveCount(0);
  await waitForStatus(request, id, "idle");
  const users = (await eventsOf(request, id)).filter((e) => e.type === "message.user").map((e) => e.payload.text);
  expect(users).toContain("also check the README");
});

test("timeline: tool calls are one line with the result and the edit diff on demand; long logs page", async ({
  page,
  request,
}) => {
  const id = await scripted(
    request,
    [
      call("write", { path: "t.txt", content: "one\n" }),
      call("edit", { path: "t.txt", oldString: "one", newString: "two" }),
      { text: "Edited." },
    ],
    { mode: "acceptEdits" },
  );
  await request.post(`/api/sessions/${id}/messages`, { data: { text: "edit t.txt" } });
  await waitForStatus(request, id, "idle");
  const filler: NewEvent[] = Array.from({ length: 450 }, (_, i) => ({
    type: "notice",
    payload: { level: "info", text: `filler ${i + 1}` },
  }));
  await appendEvents(db, id, filler);
  const last = (await stateOf(request, id)).lastSeq;

  await page.goto(`/sessions/${id}`);
  const items = page.getByTestId("timeline-item");
  // The latest page (100 events) first, then earlier pages of 100 on demand.
  await expect(items).toHaveCount(100);
  await expect(items.last()).toContainText("filler 450");
  await page.getByTestId("load-earlier").click();
  await expect(items).toHaveCount(200);
  // Each click loads one earlier page; the button goes once the log's start is shown (never click a vanishing one).
  const earlier = page.getByTestId("load-earlier");
  for (let i = 0; i < 10 && (await earlier.count()) > 0; i++) {
    const before = await items.count();
    await earlier.click({ timeout: 5_000 }).catch(() => undefined);
    await expect.poll(async () => (await items.count()) > before || (await earlier.count()) === 0).toBe(true);
  }
  await expect(page.getByTestId("timeline")).toContainText("edit t.txt");
  expect(last).toBeGreaterThan(450);

  const edit = page.locator('[data-testid="timeline-item"][data-tool="edit"]');
  await expect(edit).toContainText("t.txt");
  await expect(edit.getByTestId("tool-diff")).toBeHidden();
  await edit.locator("summary").click();
  await expect(edit.getByTestId("tool-diff")).toContainText("-one");
  await expect(edit.getByTestId("tool-diff")).toContainText("+two");
  await expect(edit.getByTestId("tool-output")).toBeVisible();
});
