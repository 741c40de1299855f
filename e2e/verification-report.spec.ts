import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectAxeClean } from "./axe";
import { SAMPLE_FILES } from "../lib/workspace/ensure-sample-workspace";
import { call, eventsOf, exitPlan, say, scripted, waitForStatus, approveVia } from "./helpers";

test("after the approved plan is carried out, the verification report shows in the timeline; a failure goes back to the agent in one click", async ({
  page,
  request,
}) => {
  const plan = "# Plan\n\n1. Write VERIFY-A.md\n2. Write VERIFY-B.md\n";
  const id = await scripted(
    request,
    [
      exitPlan(plan),
      call("write", { path: "VERIFY-A.md", content: "a\n" }),
      { text: "Only did A." },
      { text: "Now B is next." },
    ],
    { title: "Verify me" },
  );
  await say(request, id, "write both files");
  await waitForStatus(request, id, "awaiting_review");
  await page.goto(`/sessions/${id}`);
  await approveVia(page, "approve-accept-edits");
  await expect(page.getByTestId("timeline")).toContainText("Only did A.", { timeout: 15_000 });

  const entry = page.locator('[data-testid="timeline-item"][data-kind="verification"]');
  await expect(entry).toHaveAttribute("data-status", "fail", { timeout: 15_000 });
  const report = entry.getByTestId("verification-report");
  await expect(report).toContainText("Verification of plan version 1: failed");
  await expect(report).toContainText("the files that changed; no verify command ran");
  await expect(report.getByTestId("verification-item")).toHaveCount(2);
  // A changed file is not a checked one: no verify command ran here.
  await expect(report.locator('[data-testid="verification-item"][data-status="unverified"]')).toContainText(
    "unverified: changed, not checked",
  );
  const missing = report.locator('[data-testid="verification-item"][data-status="missing"]');
  await expect(missing).toContainText("Write VERIFY-B.md");
  // Every verdict says why, not only which files back it.
  await expect(missing.getByTestId("verification-reason")).toContainText("none of its files changed (VERIFY-B.md)");
  await page.screenshot({ path: "e2e/screenshots/verification-report.png", fullPage: true });
  await expectAxeClean(page);

  await report.getByTestId("send-back").click();
  await expect(page.getByTestId("timeline")).toContainText("Now B is next.", { timeout: 15_000 });
  const sent = (await eventsOf(request, id))
    .filter((e) => e.type === "message.user")
    .map((e) => String(e.payload.text));
  expect(sent.at(-1)).toContain("- missing: Write VERIFY-B.md");
  // Sent back, the agent's next turn is checked again (it wrote nothing, so it fails again, saying why).
  await expect(page.locator('[data-testid="timeline-item"][data-kind="verification"]')).toHaveCount(2, {
    timeout: 15_000,
  });
});

test("in a workspace without git, a file a shell command created is seen by the check (a snapshot of the files at approval)", async ({
  page,
  request,
}) => {
  const plan = "# Plan\n\n1. Create SHELL-MADE.md with a shell command\n";
  const id = await scripted(
    request,
    [
      exitPlan(plan),
      call("bash", { command: "printf 'made by the shell\\n' > SHELL-MADE.md" }),
      { text: "Shell did it." },
    ],
    { title: "No git" },
  );
  await say(request, id, "make the file with the shell");
  await waitForStatus(request, id, "awaiting_review");
  await page.goto(`/sessions/${id}`);
  await approveVia(page, "approve-accept-edits");
  // The shell command asks (it runs in the sandbox once a person allows it).
  await page.getByTestId("permission-card").getByTestId("allow-once").click({ timeout: 15_000 });
  await expect(page.getByTestId("timeline")).toContainText("Shell did it.", { timeout: 15_000 });
  const report = page
    .locator('[data-testid="timeline-item"][data-kind="verification"]')
    .getByTestId("verification-report");
  await expect(report).toHaveAttribute("data-status", "unverified", { timeout: 15_000 });
  await expect(report.locator('[data-testid="verification-item"][data-status="unverified"]')).toContainText(
    "SHELL-MADE.md (added, outside the tools)",
  );
  await expect(report.getByTestId("verification-unseen")).toHaveCount(0);
});

// Issue 42, point 5: "passed" only when something checked the work. Each test has its own copy of the sample
// project (the offline demo's), whose verify command `node --test` runs its own tests.
const COUNT_PLAN = "# Plan: count the open todos\n\n1. Add the function `countOpen` to `src/todo.js`\n";
const STUB = `${SAMPLE_FILES["src/todo.js"]}\nexport function countOpen() {}\n`;
const REAL = `${SAMPLE_FILES["src/todo.js"]}\nexport function countOpen() {\n  return todos.filter((t) => !t.done).length;\n}\n`;

function sampleCopy(name: string, withVerify: boolean): string {
  const workspace = path.resolve(`data/e2e/workspaces/${name}`);
  fs.rmSync(workspace, { recursive: true, force: true });
  for (const [rel, content] of Object.entries(SAMPLE_FILES)) {
    if (!withVerify && rel === ".plangate/config.json") continue;
    fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
    fs.writeFileSync(path.join(workspace, rel), content);
  }
  return workspace;
}

/** A scripted session in `workspace` that plans countOpen and, once approved, writes src/todo.js as given. */
async function countOpenSession(request: APIRequestContext, workspace: string, content: string): Promise<string> {
  const res = await request.post("/api/sessions", {
    data: {
      model: "scripted",
      mode: "plan",
      workspace,
      title: "Count the open todos",
      script: [exitPlan(COUNT_PLAN), call("write", { path: "src/todo.js", content }), { text: "Wrote countOpen." }],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { session: { id: string } }).session.id;
  await say(request, id, "count the open todos");
  await waitForStatus(request, id, "awaiting_review");
  return id;
}

const reportIn = (page: Page) =>
  page.locator('[data-testid="timeline-item"][data-kind="verification"]').getByTestId("verification-report");

test("a stub with no verify command: the report and its item say unverified, changed, not checked, and nothing is green", async ({
  page,
  request,
}) => {
  const id = await countOpenSession(request, sampleCopy("verify-none", false), STUB);
  await page.goto(`/sessions/${id}`);
  await approveVia(page, "approve-accept-edits");
  const entry = page.locator('[data-testid="timeline-item"][data-kind="verification"]');
  await expect(entry).toHaveAttribute("data-status", "unverified", { timeout: 15_000 });
  const report = reportIn(page);
  await expect(report).toHaveAttribute("data-status", "unverified");
  await expect(report.getByTestId("verification-status")).toHaveText("unverified: changed, not checked");
  await expect(report.getByTestId("verification-status")).not.toHaveClass(/emerald/);
  await expect(report.getByTestId("verification-not-checked")).toContainText("this workspace has no verify command");
  const item = report.getByTestId("verification-item");
  await expect(item).toHaveAttribute("data-status", "unverified");
  await expect(item).toContainText("unverified: changed, not checked");
  await expect(item).toContainText("Add the function countOpen to src/todo.js");
  await expect(item.getByTestId("verification-reason")).toContainText("every file it names changed: src/todo.js");
  // Nothing failed, so nothing to send back; and it is not a pass.
  await expect(report.getByTestId("send-back")).toHaveCount(0);
  await page.screenshot({ path: "e2e/screenshots/verification-unverified.png", fullPage: true });
  const { violations } = await new AxeBuilder({ page }).include('[data-testid="verification-report"]').analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  // What the server stored says the same.
  const stored = (await (await request.get(`/api/sessions/${id}/verify`)).json()) as {
    verifications: { status: string; report: { items: { status: string }[] } }[];
  };
  expect(stored.verifications[0]).toMatchObject({
    status: "unverified",
    report: { items: [{ status: "unverified" }] },
  });
});

test("with the sample's verify command: a person trusts it and allows it; a stub fails its tests, a real countOpen passes them", async ({
  page,
  request,
}) => {
  const workspace = sampleCopy("verify-sample", true);
  const stub = await countOpenSession(request, workspace, STUB);
  await page.goto(`/sessions/${stub}`);
  // The verify command comes from the workspace's config: it applies only once a person trusts that content.
  const trust = page.getByTestId("config-trust");
  await expect(trust.getByTestId("config-widening")).toContainText("verify.command: node --test");
  await trust.getByTestId("trust-config").click();
  await expect(trust).toHaveCount(0);
  await approveVia(page, "approve-accept-edits");
  // And it still runs only after a person allowed exactly this command.
  const ask = page.getByTestId("permission-card");
  await expect(ask).toContainText("node --test", { timeout: 15_000 });
  await ask.getByTestId("allow-once").click();
  const failed = reportIn(page);
  await expect(failed).toHaveAttribute("data-status", "fail", { timeout: 30_000 });
  await expect(failed.getByTestId("verification-status")).toHaveText("failed");
  await expect(failed).toContainText("the files that changed, checked by the verify command");
  const failing = failed.getByTestId("verification-item");
  await expect(failing).toHaveAttribute("data-status", "failing");
  await expect(failing).toContainText("changed, tests fail");
  await expect(failed.getByTestId("verification-test")).toContainText("Verify command node --test: failed (exit 1)");
  await expect(failed).toContainText("not ok 3 - countOpen counts the todos not done");
  await expect(failed.getByTestId("send-back")).toBeVisible();

  fs.writeFileSync(path.join(workspace, "src/todo.js"), SAMPLE_FILES["src/todo.js"]!);
  const real = await countOpenSession(request, workspace, REAL);
  await page.goto(`/sessions/${real}`);
  await expect(page.getByTestId("config-trust")).toHaveCount(0);
  await approveVia(page, "approve-accept-edits");
  await page.getByTestId("permission-card").getByTestId("allow-once").click({ timeout: 15_000 });
  const passed = reportIn(page);
  await expect(passed).toHaveAttribute("data-status", "pass", { timeout: 30_000 });
  await expect(passed.getByTestId("verification-status")).toHaveText("passed");
  const done = passed.getByTestId("verification-item");
  await expect(done).toHaveAttribute("data-status", "done");
  await expect(done).toContainText("done, checked");
  await expect(done.getByTestId("verification-reason")).toContainText("the verify command passed after the change");
  await expect(passed.getByTestId("verification-test")).toContainText("Verify command node --test: passed");
  await expect(passed.getByTestId("send-back")).toHaveCount(0);
  await page.screenshot({ path: "e2e/screenshots/verification-checked.png", fullPage: true });
});
