import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { expectAxeClean } from "./axe";
import { approveVia, exitPlan, pendingReviewOf, say, waitForStatus } from "./helpers";
import { OPERATOR_HEADERS } from "./operator";

// Issue 28, the desk: a Plangate plan, a teammate's plan and an outside agent's plan wait together, oldest first;
// each is decided there, the next one opens, and a second reviewer's desk follows without a reload.
const WORKSPACE = path.resolve("data/e2e/workspaces/desk-e2e");

async function post(request: APIRequestContext, url: string, data: unknown) {
  const res = await request.post(url, { data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

/** A Plangate session in `workspace` whose plan waits for review. */
async function ownPlan(request: APIRequestContext, workspace: string, title: string) {
  const id = (
    await post(request, "/api/sessions", {
      model: "scripted",
      mode: "plan",
      workspace,
      title,
      script: [exitPlan("# Add a health route\n\n1. Add app/api/ping/route.ts\n"), { text: "done" }],
    })
  ).session.id as string;
  await say(request, id, "plan it");
  await waitForStatus(request, id, "awaiting_review");
  return id;
}

/** Three plans from three sources, in this order: Plangate's agent, a teammate, Claude Code. */
async function threePlans(request: APIRequestContext) {
  const own = await ownPlan(request, WORKSPACE, "Desk own");
  const lead = (
    await post(request, "/api/sessions", {
      model: "scripted",
      mode: "default",
      workspace: WORKSPACE,
      title: "Desk lead",
      script: [{ text: "ok" }],
    })
  ).session.id as string;
  const teamId = (await post(request, "/api/teams", { sessionId: lead, name: "Desk team" })).team.id as string;
  const mate = (
    await post(request, `/api/teams/${teamId}/teammates`, {
      name: "tilly",
      task: "write docs",
      requirePlanApproval: true,
      script: [exitPlan("# Document the ping route\n\n1. Write docs/ping.md\n"), { text: "tilly done" }],
    })
  ).sessionId as string;
  await waitForStatus(request, mate, "awaiting_review");
  const outside = (await post(request, "/api/external/plan-reviews", {
    agent: "claude-code",
    externalSessionId: "desk-cc",
    cwd: WORKSPACE,
    plan: "# Add a todo filter\n\n1. Add filter to src/todo.ts\n",
  })) as { reviewId: string; sessionId: string };
  return {
    own: await pendingReviewOf(request, own),
    mate: await pendingReviewOf(request, mate),
    outside: outside.reviewId,
    outsideSession: outside.sessionId,
    ids: { own, mate },
  };
}

const item = (page: Page, id: string) => page.locator(`[data-testid="desk-item"][data-item="${id}"]`);

test("the desk lists every source's plan together, decides each there, and opens the next", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  fs.mkdirSync(WORKSPACE, { recursive: true });
  const r = await threePlans(request);
  await page.goto(`/desk?workspace=${encodeURIComponent(WORKSPACE)}`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const items = page.getByTestId("desk-item");
  await expect(items).toHaveCount(3);
  // Oldest first, each saying who asks.
  expect(await items.evaluateAll((els) => els.map((e) => e.getAttribute("data-item")))).toEqual([
    r.own,
    r.mate,
    r.outside,
  ]);
  await expect(item(page, r.own)).toContainText("Plangate");
  await expect(item(page, r.mate)).toContainText("Teammate tilly");
  await expect(item(page, r.outside)).toContainText("Claude Code");
  // The outside agent's session is named from its plan and its project, and joined no team by itself.
  await expect(item(page, r.outside)).toContainText("Add a todo filter");
  await expect(page).toHaveTitle(/^\(\d+\) Desk · Plangate$/);
  await expectAxeClean(page);
  await page.screenshot({ path: "e2e/screenshots/desk.png", fullPage: true });

  // j/k move only within the list; Enter opens.
  await expect(page.getByTestId("desk-open")).toHaveAttribute("data-item", r.own);
  await item(page, r.own).focus();
  await page.keyboard.press("j");
  await expect(item(page, r.mate)).toBeFocused();
  await page.keyboard.press("j");
  await page.keyboard.press("k");
  await expect(item(page, r.mate)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("desk-open")).toHaveAttribute("data-item", r.mate);

  // Filters: by agent, and the hook's printed address opens that review.
  await page.goto(`/desk?agent=${encodeURIComponent("Claude Code")}&workspace=${encodeURIComponent(WORKSPACE)}`);
  await expect(items).toHaveCount(1);
  await page.goto(`/desk?item=${r.outside}`);
  await expect(page.getByTestId("desk-open")).toHaveAttribute("data-item", r.outside);

  // A second reviewer's desk, live: a new plan appears there, and one decided on the first desk leaves, unreloaded.
  const other = await (await browser.newContext({ baseURL, extraHTTPHeaders: OPERATOR_HEADERS })).newPage();
  await other.goto(`/desk?workspace=${encodeURIComponent(WORKSPACE)}`);
  await expect(other.getByTestId("desk-item")).toHaveCount(3);
  const late = (
    await post(request, "/api/external/plan-reviews", {
      agent: "opencode",
      externalSessionId: "desk-oc",
      cwd: WORKSPACE,
      plan: "# Rename the ping route\n\n1. Move app/api/ping\n",
    })
  ).reviewId as string;
  await expect(item(other, late)).toHaveCount(1, { timeout: 10_000 });

  const here = `/desk?workspace=${encodeURIComponent(WORKSPACE)}`;
  await page.goto(`${here}&item=${r.own}`);
  await approveVia(page.getByTestId("desk-open"), "approve-accept-edits");
  await expect(item(other, r.own)).toHaveCount(0, { timeout: 10_000 });
  // Decided: it leaves, and the next (the teammate's) opens.
  await expect(item(page, r.own)).toHaveCount(0);
  await expect(page.getByTestId("desk-open")).toHaveAttribute("data-item", r.mate);
  await waitForStatus(request, r.ids.own, "idle");
  await page.getByTestId("desk-open").getByTestId("approve").click();
  await expect(item(page, r.mate)).toHaveCount(0);
  await expect(page.getByTestId("desk-open")).toHaveAttribute("data-item", r.outside);
  await approveVia(page.getByTestId("desk-open"), "approve-accept-edits");
  await expect(page.getByTestId("desk-open")).toHaveAttribute("data-item", late);
  await page.getByTestId("desk-open").getByTestId("keep-planning").click();
  await page.getByTestId("plan-feedback").fill("Not now.");
  await page.getByTestId("send-feedback").click();
  await expect(page.getByTestId("desk-empty")).toBeVisible();
  await other.context().close();

  // The outside agent joined no team by itself; a person may send its next plans to the team working there.
  const outsideSession = `/sessions/${r.outsideSession}`;
  await page.goto(outsideSession);
  await expect(page.getByTestId("team-link")).toHaveCount(0);
  await page.getByTestId("join-team").click();
  await expect(page.getByTestId("team-link")).toContainText("team mailbox");
  const outcome = await (await request.get(`/api/external/plan-reviews/${r.outside}?wait=0`)).json();
  expect(outcome.status).toBe("approved");
});

test("at 390 px the desk lists the waiting plans above the open card, without sideways scrolling; each is decided there", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const workspace = path.resolve("data/e2e/workspaces/desk-phone");
  fs.mkdirSync(workspace, { recursive: true });
  await ownPlan(request, workspace, "Phone own");
  const outside = (
    await post(request, "/api/external/plan-reviews", {
      agent: "claude-code",
      externalSessionId: "desk-phone-cc",
      cwd: workspace,
      plan: "# Add a todo filter\n\n1. Add filter to src/todo.ts\n",
    })
  ).reviewId as string;
  await page.goto(`/desk?workspace=${encodeURIComponent(workspace)}`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await expect(page.getByTestId("desk-item")).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const first = await page.getByTestId("desk-item").first().boundingBox();
  const card = await page.getByTestId("desk-open").boundingBox();
  expect(first!.y).toBeLessThan(card!.y);
  await expectAxeClean(page);
  await page.screenshot({ path: "e2e/screenshots/desk-390.png", fullPage: true });
  await page.getByTestId("desk-open").getByTestId("approve").click();
  await expect(page.getByTestId("desk-open")).toHaveAttribute("data-item", outside, { timeout: 15_000 });
  await page.getByTestId("desk-open").getByTestId("approve").click();
  await expect(page.getByTestId("desk-empty")).toBeVisible({ timeout: 15_000 });
  expect((await (await request.get(`/api/external/plan-reviews/${outside}?wait=0`)).json()).status).toBe("approved");
});
