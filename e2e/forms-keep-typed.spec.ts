import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

// Issue 28: a form the server refuses keeps what the person typed and chose, with the server's reason beside it.
test("a refused new session keeps its title, workspace and model, and says why", async ({ page }) => {
  const gone = path.resolve("data/e2e/workspaces/vanishing-e2e");
  fs.mkdirSync(gone, { recursive: true });
  await page.goto("/");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const form = page.getByTestId("new-session-form");
  await form.getByTestId("new-title").fill("Keep this title");
  await form.getByTestId("new-workspace").selectOption(gone);
  const model = form.getByTestId("new-model");
  await model.fill("offline");
  await form.getByTestId("new-agent").selectOption("plan");
  // The folder goes away before the form is sent: the server refuses it.
  fs.rmSync(gone, { recursive: true, force: true });
  await form.locator('button[type="submit"]').click();
  await expect(form.getByRole("alert")).toBeVisible();
  await expect(form.getByTestId("new-title")).toHaveValue("Keep this title");
  await expect(form.getByTestId("new-workspace")).toHaveValue(gone);
  await expect(model).toHaveValue("offline");
  await expect(form.getByTestId("new-agent")).toHaveValue("plan");
  await expect(page).toHaveURL(/\/$/);
});
