// A person approves an outside agent's plan in Chromium, on the session's page: the card shows the plan and which
// agent runs it, and its Approve button decides. Shared by the agents' real-CLI suites.
import { chromium } from "@playwright/test";
import { expect } from "vitest";
import { until } from "../helpers/poll";
import { operatorHeaders } from "../helpers/server";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

type Api = (method: string, route: string) => Promise<{ status: number; body: any }>;

export async function approveInBrowser(o: {
  url: string;
  api: Api;
  review: { id: string; sessionId: string };
  /** Text of the plan the card must show. */
  shows: string;
  /** The agent's name the card must show. */
  agent: string;
}): Promise<void> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await browser.newPage({ extraHTTPHeaders: operatorHeaders() });
    await page.goto(`${o.url}/sessions/${o.review.sessionId}`);
    const card = page.getByTestId("decision-card");
    await card.waitFor({ timeout: 20_000 });
    expect(await card.textContent()).toContain(o.shows);
    expect(await page.getByTestId("outside-agent").textContent()).toContain(o.agent);
    await card.getByTestId("approve").click();
    await until(
      () => o.api("GET", `/api/reviews/${o.review.id}`),
      (r) => r.body.review.status === "approved",
      20_000,
    );
  } finally {
    await browser.close();
  }
}
