import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { call, say, stateOf, waitForStatus, openTools } from "./helpers";

// A workspace config that would let a command run without asking: nothing of it applies until a person trusts
// this exact content on the session page; the workspace page lists the trust and takes it back.
test("the trust card: what the config would widen, Trust this config, then the rule answers; the workspace page takes it back", async ({
  page,
  request,
}) => {
  const workspace = path.resolve("data/e2e/workspaces/trust-card");
  fs.mkdirSync(path.join(workspace, ".plangate"), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, ".plangate/config.json"),
    JSON.stringify({ permission: { bash: { "touch trusted.txt": "allow" } } }),
  );
  const res = await request.post("/api/sessions", {
    data: {
      model: "scripted",
      mode: "default",
      workspace,
      script: [call("bash", { command: "touch trusted.txt" }), { text: "done" }],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { session: { id: string } }).session.id;

  await page.goto(`/sessions/${id}`);
  const card = page.getByTestId("config-trust");
  await expect(card).toContainText("waits for your trust");
  await expect(card.getByTestId("config-widening")).toContainText('bash "touch trusted.txt" → allow');
  await page.screenshot({ path: "e2e/screenshots/config-trust-card.png", fullPage: true });
  await card.getByTestId("trust-config").click();
  await expect(card).toHaveCount(0);

  await say(request, id, "touch it");
  await waitForStatus(request, id, "idle");
  expect((await stateOf(request, id)).status).toBe("idle");
  expect(fs.existsSync(path.join(workspace, "trusted.txt"))).toBe(true);
  await expect(page.getByTestId("permission-card")).toHaveCount(0);

  await openTools(page);
  await page.getByTestId("workspace-settings-link").click();
  const trusted = page.getByTestId("config-trust");
  await expect(trusted).toContainText("is trusted");
  await trusted.getByTestId("revoke-config-trust").click();
  await expect(trusted).toContainText("waits for your trust");
  await expect(trusted.getByTestId("trust-config")).toBeVisible();
});
