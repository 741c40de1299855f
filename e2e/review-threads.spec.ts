import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { expectAxeClean } from "./axe";
import { blockAt, commentOn, exitPlan, exitResults, say, scripted, waitForStatus } from "./helpers";

// Issue 28: a plan reviewed as a pull request is: threads beside the text they are about, replies and resolving
// across versions, suggested text the agent receives and that Approve can apply, and the changed words marked.
const V1 = "# Plan\n\n1. Add a cache\n2. Use Redis for it\n3. Write tests\n";
const V2 = "# Plan\n\n1. Add a cache\n2. Use an in-memory map for it\n3. Write tests\n";
const V3 = "# Plan\n\n1. Add a cache\n2. Use an in-memory map for it\n3. Write tests\n4. Cap it at 1,000 entries\n";

async function openCard(page: Page, id: string, version: number) {
  await page.goto(`/sessions/${id}`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const card = page.getByTestId("decision-card");
  await expect(card.getByTestId("plan-version")).toHaveText(`version ${version}`, { timeout: 15_000 });
  return card;
}

test("threads sit beside their lines, replies and resolving carry across versions, suggestions reach the agent and Approve applies them", async ({
  page,
  request,
}) => {
  const id = await scripted(request, [exitPlan(V1), exitPlan(V2), exitPlan(V3), { text: "Cache built." }], {
    mode: "default",
  });
  await say(request, id, "/plan a cache");
  await waitForStatus(request, id, "awaiting_review");
  let card = await openCard(page, id, 1);

  // Version 1: a suggestion on line 4 and a comment on line 5, sent with Request changes.
  await (await blockAt(card, 4)).getByTestId("comment-block").click();
  await card.getByTestId("line-comment").fill("No new infrastructure.");
  await card.getByTestId("suggest-change").click();
  await expect(card.getByTestId("suggestion-text")).toHaveValue("2. Use Redis for it");
  await card.getByTestId("suggestion-text").fill("2. Use an in-memory map for it");
  await card.getByTestId("add-comment").click();
  await commentOn(card, 5, 5, "Which tests?");
  await expect(card.getByTestId("review-summary")).toHaveText("Your review: 1 comment, 1 suggestion");
  await card.getByTestId("keep-planning").click();
  await expect(card.getByTestId("send-summary")).toContainText("You are sending: 1 comment, 1 suggestion");
  await card.getByTestId("send-feedback").click();

  // Version 2: the changed words are marked; the line-5 thread is open beside line 5, the other outdated.
  card = page.getByTestId("decision-card");
  await expect(card.getByTestId("plan-version")).toHaveText("version 2", { timeout: 15_000 });
  const [sentBack] = await exitResults(request, id);
  expect(sentBack?.error).toContain(
    "No new infrastructure.\n  Suggested text for these lines:\n  + 2. Use an in-memory map for it",
  );
  expect(sentBack?.error).toContain("> 3. Write tests\n  Which tests?");
  await expect(card.getByTestId("word-removed")).toHaveText(["Redis"]);
  await expect(card.getByTestId("word-added")).toHaveText(["an in-memory map"]);
  const beside = (await blockAt(card, 5)).getByTestId("thread");
  await expect(beside).toHaveAttribute("data-status", "open");
  await expect(beside).toContainText("Which tests?");
  const outdated = card.getByTestId("outdated-threads").getByTestId("thread");
  await expect(outdated).toHaveAttribute("data-status", "outdated");
  await expect(outdated).toContainText("2. Use Redis for it");
  await expect(outdated.getByTestId("suggestion")).toContainText("+ 2. Use an in-memory map for it");
  await expectAxeClean(page);

  // Reply on one thread, resolve the other; the summary says what goes, before anything is sent.
  await beside.getByTestId("thread-reply-open").click();
  await beside.getByTestId("thread-reply").fill("Name the cases: hits, misses, expiry.");
  await outdated.getByTestId("resolve-thread").click();
  await expect(outdated).toHaveAttribute("data-resolving", "true");
  await expect(card.getByTestId("review-summary")).toHaveText("Your review: 1 reply, 1 thread resolved");
  await card.getByTestId("keep-planning").click();
  await expect(card.getByTestId("send-summary")).toContainText("1 reply, 1 thread resolved · Request changes");
  await card.getByTestId("send-feedback").click();

  // Version 3: the resolved thread stays resolved (folded), the replied one keeps both comments and stays open.
  card = page.getByTestId("decision-card");
  await expect(card.getByTestId("plan-version")).toHaveText("version 3", { timeout: 15_000 });
  const second = (await exitResults(request, id))[1];
  expect(second?.error).toContain("- On “3. Write tests”: Name the cases: hits, misses, expiry.");
  expect(second?.error).toContain("- On “2. Use Redis for it”: (resolved)");
  await expect(card.locator('[data-testid="thread"][data-status="resolved"]')).toHaveCount(1);
  const open = (await blockAt(card, 5)).getByTestId("thread");
  await expect(open).toHaveAttribute("data-status", "open");
  await expect(open.locator("li")).toHaveText([/Which tests\?/, /Name the cases/]);

  // A suggestion on the new line, applied by Approve: the agent is given the plan as suggested.
  await (await blockAt(card, 6)).getByTestId("comment-block").click();
  await card.getByTestId("suggest-change").click();
  await card.getByTestId("suggestion-text").fill("4. Cap it at 500 entries");
  await card.getByTestId("suggestion-text").press("Control+Enter");
  await expect(card.getByTestId("pending-comment")).toHaveCount(1);
  await expect(card.getByTestId("apply-suggestions")).toBeChecked();
  await page.screenshot({ path: "docs/images/card-threads.png", fullPage: true });
  await card.getByTestId("approve").click();
  await waitForStatus(request, id, "idle");
  const approved = (await exitResults(request, id))[2];
  const [, approvedPlan] = String(approved?.output).split("## Approved Plan (edited by user)");
  expect(approvedPlan).toContain("4. Cap it at 500 entries");
  expect(approvedPlan).not.toContain("1,000 entries");
});

test("at 390 px the actions are a bottom sheet that steps aside while a comment box is open, never covering it", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const plan = `# Plan\n\n${Array.from({ length: 40 }, (_, i) => `${i + 1}. step ${i + 1}`).join("\n")}\n`;
  const id = await scripted(request, [exitPlan(plan), { text: "ok" }], { mode: "default" });
  await say(request, id, "/plan a long one");
  await waitForStatus(request, id, "awaiting_review");
  const card = await openCard(page, id, 1);
  const sheet = card.getByTestId("decision-actions");
  await expect(sheet).toHaveAttribute("data-sheet", "yes");
  const box = await sheet.boundingBox();
  expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(844);
  await page.screenshot({ path: "docs/images/card-phone-sheet.png" });

  await (await blockAt(card, 30)).getByTestId("comment-block").click();
  const comment = card.getByTestId("line-comment");
  await expect(comment).toBeFocused();
  await expect(sheet).toHaveAttribute("data-sheet", "no");
  const covered = await comment.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) !== el;
  });
  expect(covered).toBe(false);
  // Esc closes the box and keeps what was typed: the sheet comes back, and the next box has the words.
  await page.keyboard.type("Too many steps.");
  await page.keyboard.press("Escape");
  await expect(sheet).toHaveAttribute("data-sheet", "yes");
  await (await blockAt(card, 31)).getByTestId("comment-block").click();
  await expect(card.getByTestId("line-comment")).toHaveValue("Too many steps.");
  await expectAxeClean(page);
});

test("an outside agent's card says what the agent will receive and offers only that: a note blocks Approve until it goes", async ({
  page,
  request,
}) => {
  const res = await request.post("/api/external/plan-reviews", {
    data: {
      agent: "opencode",
      externalSessionId: "receives-oc",
      cwd: path.resolve("data/e2e/workspaces/sample"),
      plan: "# Add a todo filter\n\n1. Add filter to src/todo.ts\n",
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { reviewId, sessionId } = (await res.json()) as { reviewId: string; sessionId: string };
  await page.goto(`/sessions/${sessionId}`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const card = page.getByTestId("decision-card");
  await expect(card.getByTestId("agent-receives")).toContainText(
    "OpenCode receives the plan as you approve it (your edits and applied suggestions included) with an approval; it picks its own mode.",
  );
  // OpenCode chooses its own mode: no mode menu to promise one.
  await expect(card.getByTestId("approve-options")).toHaveCount(0);
  await card.getByTestId("keep-planning").click();
  await card.getByTestId("plan-feedback").fill("Cap the list at 50.");
  await expect(card.getByTestId("approve")).toBeDisabled();
  await expect(card.getByTestId("approve-blocked")).toContainText("OpenCode does not receive notes with an approval");
  await expectAxeClean(page);
  await card.getByTestId("plan-feedback").fill("");
  await expect(card.getByTestId("approve")).toBeEnabled();
  await card.getByTestId("approve").click();
  await expect
    .poll(async () => (await (await request.get(`/api/external/plan-reviews/${reviewId}?wait=0`)).json()).status)
    .toBe("approved");
});

test("a file the plan names opens from the card, read-only in a new tab; a name that leads outside the workspace shows nothing of it", async ({
  page,
  request,
}) => {
  const sample = path.resolve("data/e2e/workspaces/sample");
  const id = await scripted(request, [exitPlan("# Plan\n\n1. Add `done` to `src/todo.js`\n"), { text: "ok" }], {
    mode: "default",
  });
  await say(request, id, "/plan add done");
  await waitForStatus(request, id, "awaiting_review");
  const card = await openCard(page, id, 1);
  const [tab] = await Promise.all([page.context().waitForEvent("page"), card.getByTestId("plan-file-link").click()]);
  await expect(tab!.getByTestId("workspace-file")).toContainText("export function addTodo");
  await tab!.close();

  fs.rmSync(path.join(sample, "passwd-link"), { force: true });
  fs.symlinkSync("/etc/passwd", path.join(sample, "passwd-link"));
  for (const file of ["../../../../../etc/passwd", "/etc/passwd", "passwd-link", "~/.bashrc"]) {
    await page.goto(`/workspace/file?path=${encodeURIComponent(sample)}&file=${encodeURIComponent(file)}`);
    await expect(page.getByTestId("file-refused"), file).toBeVisible();
    await expect(page.locator("main")).not.toContainText("root:");
  }
  fs.rmSync(path.join(sample, "passwd-link"), { force: true });
});
