import { expect, type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";
import { TEST_PASSWORD } from "../tests/helpers/people";

export type Step = {
  text?: string;
  streamDelayMs?: number;
  toolCalls?: { name: string; input: Record<string, unknown> }[];
};
export type LoggedEvent = { seq: number; type: string; payload: Record<string, unknown> };

export const exitPlan = (plan: string): Step => ({ toolCalls: [{ name: "exit_plan_mode", input: { plan } }] });
export const call = (name: string, input: Record<string, unknown>): Step => ({ toolCalls: [{ name, input }] });

/** A scripted session (the server runs with PLANGATE_ALLOW_SCRIPTED=1), created through the API. */
export async function scripted(
  request: APIRequestContext,
  script: Step[],
  opts: { mode?: string; title?: string; base?: string } = {},
): Promise<string> {
  const res = await request.post(`${opts.base ?? ""}/api/sessions`, {
    data: { model: "scripted", mode: opts.mode ?? "plan", title: opts.title, script },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { session: { id: string } }).session.id;
}

export async function say(request: APIRequestContext, id: string, text: string, base = ""): Promise<void> {
  const res = await request.post(`${base}/api/sessions/${id}/messages`, { data: { text } });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

export async function stateOf(
  request: APIRequestContext,
  id: string,
  base = "",
): Promise<{ status: string; mode: string; lastSeq: number }> {
  return (
    (await (await request.get(`${base}/api/sessions/${id}`)).json()) as {
      state: { status: string; mode: string; lastSeq: number };
    }
  ).state;
}

export async function waitForStatus(request: APIRequestContext, id: string, status: string, base = ""): Promise<void> {
  await expect.poll(async () => (await stateOf(request, id, base)).status, { timeout: 15_000 }).toBe(status);
}

export async function eventsOf(request: APIRequestContext, id: string, base = ""): Promise<LoggedEvent[]> {
  return (
    (await (await request.get(`${base}/api/sessions/${id}/events?limit=5000`)).json()) as { events: LoggedEvent[] }
  ).events;
}

/** The exit tool's results: what the model was told about each decision. */
export async function exitResults(
  request: APIRequestContext,
  id: string,
  base = "",
): Promise<{ ok: boolean; output?: string; error?: string }[]> {
  return (await eventsOf(request, id, base))
    .filter((e) => e.type === "tool.result" && e.payload.tool === "exit_plan_mode")
    .map((e) => e.payload as { ok: boolean; output?: string; error?: string });
}

type Scope = Page | Locator;
export type ApproveWay = "approve-accept-edits" | "approve-review-edits" | "approve-auto";

/** Approves one way through the card's Approve menu (the main button approves the way from before plan mode). */
export async function approveVia(scope: Scope, way: ApproveWay): Promise<void> {
  await scope.getByTestId("approve-options").click();
  await scope.getByTestId(way).click();
}

/** Picks an item of the card's More… menu. */
export async function moreAction(scope: Scope, item: "edit-plan" | "chat-about-it"): Promise<void> {
  await scope.getByTestId("more-actions").click();
  await scope.getByTestId(item).click();
}

/** The rendered block of the plan holding source line `line` (a heading, a paragraph, one list item…). */
export async function blockAt(card: Locator, line: number): Promise<Locator> {
  const blocks = card.getByTestId("plan-block");
  const ranges = await blocks.evaluateAll((els) => els.map((e) => e.getAttribute("data-lines") ?? ""));
  const at = ranges.findIndex((r) => {
    const [start, end] = r.split("-").map(Number);
    return start !== undefined && end !== undefined && line >= start && line <= end;
  });
  if (at < 0) throw new Error(`no block of the plan holds line ${line} (blocks: ${ranges.join(", ")})`);
  return blocks.nth(at);
}

/** Comments on the blocks from line `from` to line `to` (Shift+click extends the range), then adds the comment. */
export async function commentOn(card: Locator, from: number, to: number, text: string): Promise<void> {
  await (await blockAt(card, from)).getByTestId("comment-block").click();
  if (to !== from) await (await blockAt(card, to)).getByTestId("comment-block").click({ modifiers: ["Shift"] });
  await card.getByTestId("line-comment").fill(text);
  await card.getByTestId("add-comment").click();
}

/** A person signed in with a password in their own browser context, without the operator header the config adds. */
export async function signedIn(browser: Browser, base: string, email: string) {
  const context = await browser.newContext({ baseURL: base, extraHTTPHeaders: {} });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByTestId("credentials-email").fill(email);
  await page.getByTestId("credentials-password").fill(TEST_PASSWORD);
  await page.getByTestId("credentials-submit").click();
  await expect(page.getByTestId("nav-home")).toBeVisible();
  return { context, page };
}

/** Opens the session page's tools menu (export, webhooks, history, Go to event #, delete…) unless it is open. */
export async function openTools(page: Page): Promise<Locator> {
  const panel = page.getByTestId("session-tools-panel");
  if (!(await panel.isVisible())) await page.getByTestId("session-tools-toggle").click();
  await expect(panel).toBeVisible();
  return panel;
}

/** Opens a session's page and waits until it is live (hydrated: its keys and controls act). */
export async function openSession(page: Page, id: string): Promise<void> {
  await page.goto(`/sessions/${id}`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
}

/** The id of a session's pending review (the first, when there are several). */
export async function pendingReviewOf(request: APIRequestContext, id: string): Promise<string> {
  const res = await request.get(`/api/reviews?status=pending&sessionId=${id}`);
  return ((await res.json()) as { reviews: { id: string }[] }).reviews[0]?.id as string;
}

/** A session's page with its decision card, which takes the focus when the page opens. */
export async function openDecisionCard(page: Page, id: string): Promise<Locator> {
  await openSession(page, id);
  const card = page.getByTestId("decision-card");
  await expect(card).toBeFocused();
  return card;
}
