import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { freePort, startServer, type Server } from "../tests/helpers/server";
import { call, exitPlan, say, scripted, waitForStatus, approveVia } from "./helpers";
import { E2E_OPERATOR_TOKEN } from "./operator";

const DATA = "./data/e2e-restart";
const env = {
  PLANGATE_DATA_DIR: DATA,
  DATABASE_URL: `file:${DATA}/plangate.db`,
  PLANGATE_ALLOW_SCRIPTED: "1",
  PLANGATE_TOKEN: E2E_OPERATOR_TOKEN,
};
let server: Server | undefined;

test.afterAll(async () => {
  await server?.stop();
});

test("server restart mid-review: the same card comes back and Approve goes on; with the sandbox off a banner says so", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  fs.rmSync(DATA, { recursive: true, force: true });
  const port = await freePort();
  server = await startServer(env, port);
  const base = server.url;
  const id = await scripted(
    request,
    [
      exitPlan("# Plan\n\n1. write AFTER.md"),
      call("write", { path: "AFTER.md", content: "x\n" }),
      { text: "Carried on after the restart." },
    ],
    { base },
  );
  await say(request, id, "write it", base);
  await waitForStatus(request, id, "awaiting_review", base);

  await page.goto(`${base}/sessions/${id}`);
  await expect(page.getByTestId("decision-card")).toBeVisible();
  await expect(page.getByTestId("sandbox-banner")).toHaveCount(0);
  // A second tab is never reloaded: its event stream must reconnect by itself after the restart.
  const other = await page.context().newPage();
  await other.goto(`${base}/sessions/${id}`);
  await expect(other.getByTestId("decision-card")).toBeVisible();

  await server.kill9();
  server = await startServer({ ...env, PLANGATE_SANDBOX: "off" }, port);
  await page.reload();
  await expect(page.getByTestId("decision-card")).toBeVisible();
  await expect(page.getByTestId("plan-version")).toHaveText("version 1");
  await expect(page.getByTestId("sandbox-banner")).toContainText("The OS sandbox is off");
  await approveVia(page, "approve-accept-edits");
  await expect(page.getByTestId("timeline")).toContainText("Carried on after the restart.", { timeout: 20_000 });
  await expect(other.getByTestId("decision-card")).toHaveCount(0, { timeout: 20_000 });
  await expect(other.getByTestId("timeline")).toContainText("Carried on after the restart.", { timeout: 20_000 });
});
