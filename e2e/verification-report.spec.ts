import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
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
  await expect(report).toContainText("checked against the files that changed");
  await expect(report.getByTestId("verification-item")).toHaveCount(2);
  await expect(report.locator('[data-testid="verification-item"][data-status="done"]')).toContainText(
    "Write VERIFY-A.md",
  );
  const missing = report.locator('[data-testid="verification-item"][data-status="missing"]');
  await expect(missing).toContainText("Write VERIFY-B.md");
  // Every verdict says why, not only which files back it.
  await expect(missing.getByTestId("verification-reason")).toContainText("none of its files changed (VERIFY-B.md)");
  await page.screenshot({ path: "e2e/screenshots/verification-report.png", fullPage: true });
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

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
  await expect(report).toHaveAttribute("data-status", "pass", { timeout: 15_000 });
  await expect(report.locator('[data-testid="verification-item"][data-status="done"]')).toContainText(
    "SHELL-MADE.md (added, outside the tools)",
  );
  await expect(report.getByTestId("verification-unseen")).toHaveCount(0);
});
