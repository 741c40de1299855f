import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { createDb } from "../lib/db/client";
import { createPerson } from "../lib/db/people/people";
import { TEST_PASSWORD } from "../tests/helpers/people";
import { call, exitPlan, say, scripted, signedIn, waitForStatus } from "./helpers";

// Issue 42, point 11: axe's WCAG 2.2 AA and best-practice rules find nothing on the pages a team uses, on a
// laptop and on a phone. Every violation counts (not only serious ones).
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
];
const db = createDb("file:./data/e2e/plangate.db");
const NOBODY = "axe-empty-desk@example.com";
const EMPTY_ROOT = path.resolve("data/e2e/workspaces/axe-empty");
const PLAN =
  "# Plan: pagination\n\n| Step | File |\n| --- | --- |\n| 1 | src/server.ts |\n\n- [ ] add `?page=`\n- [ ] add a test\n\n```ts\nexport function page(n: number) {}\n```\n";

async function violations(page: Page): Promise<string[]> {
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  // A page's title can stream in after hydration (the desk's counts what is yours); axe reads it once it has.
  await expect(page).toHaveTitle(/\S/);
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} at ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 4)
        .join(" | ")}`,
  );
}

/** Each page at each size: the list names the page and the size with each violation. */
async function check(page: Page, url: string, ready: (page: Page) => Promise<void>): Promise<string[]> {
  const found: string[] = [];
  for (const size of VIEWPORTS) {
    await page.setViewportSize(size);
    await page.goto(url);
    await ready(page);
    for (const v of await violations(page)) found.push(`${url} at ${size.width}x${size.height}: ${v}`);
  }
  return found;
}

test.beforeAll(async () => {
  fs.mkdirSync(EMPTY_ROOT, { recursive: true });
  await createPerson(db, {
    email: NOBODY,
    name: "Eve Empty",
    password: TEST_PASSWORD,
    memberships: [{ root: EMPTY_ROOT, role: "reviewer" }],
  });
});
test.afterAll(async () => {
  await db.user.deleteMany({ where: { email: NOBODY } });
});

test("0 axe violations (WCAG 2.2 AA, best practice) on every page, at 1280x720 and 390x844", async ({
  browser,
  baseURL,
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const found: string[] = [];
  const shown = (testId: string) => async (p: Page) => {
    await expect(p.getByTestId(testId).first()).toBeVisible();
  };
  const nothing = async () => undefined;

  // Signed out: the sign-in page. An empty desk: a reviewer of a folder with no sessions.
  const anyone = await browser.newContext({ baseURL: baseURL ?? "", extraHTTPHeaders: {} });
  found.push(...(await check(await anyone.newPage(), "/sign-in", shown("credentials-submit"))));
  await anyone.close();
  const { context, page: empty } = await signedIn(browser, baseURL ?? "", NOBODY);
  found.push(...(await check(empty, "/desk", nothing)));
  // A person's own page: passkeys and notification choices (issue 46).
  found.push(...(await check(empty, "/account", shown("notification-choices"))));
  await context.close();

  found.push(...(await check(page, "/", nothing)));
  found.push(...(await check(page, "/people", shown("people-table"))));

  const reviewing = await scripted(request, [exitPlan(PLAN)], { title: "Axe plan" });
  await say(request, reviewing, "plan it");
  await waitForStatus(request, reviewing, "awaiting_review");
  found.push(...(await check(page, "/desk", shown("desk-list"))));
  found.push(...(await check(page, `/sessions/${reviewing}`, shown("decision-card"))));

  const asking = await scripted(request, [call("bash", { command: "touch x.txt" })], {
    mode: "default",
    title: "Axe ask",
  });
  await say(request, asking, "go");
  await waitForStatus(request, asking, "awaiting_permission");
  found.push(...(await check(page, "/desk", shown("desk-list"))));
  found.push(...(await check(page, `/sessions/${asking}`, shown("permission-card"))));

  expect(found).toEqual([]);
});
