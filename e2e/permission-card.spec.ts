import { expect, test } from "@playwright/test";
import { call, eventsOf, say, scripted, waitForStatus } from "./helpers";

test("permission card: allow once asks again, allow always saves the shown pattern, reject sends the message", async ({
  page,
  request,
}) => {
  const id = await scripted(
    request,
    [
      call("bash", { command: "touch one.txt" }),
      call("bash", { command: "touch two.txt" }),
      call("bash", { command: "touch three.txt" }),
      call("write", { path: "secret.txt", content: "nope\n" }),
      { text: "Understood, leaving secret.txt alone." },
    ],
    { mode: "default" },
  );
  await say(request, id, "make some files");
  await waitForStatus(request, id, "awaiting_permission");
  await page.goto(`/sessions/${id}`);

  const card = page.getByTestId("permission-card");
  await expect(card).toHaveCount(1);
  // The time a person takes is not shown as the agent working.
  await expect(page.getByTestId("waiting-for-person")).toBeVisible();
  await expect(page.getByTestId("working")).toHaveCount(0);
  await expect(card.getByTestId("permission-command")).toHaveText("$ touch one.txt");
  await expect(card.getByTestId("permission-pattern")).toHaveText(["touch one.txt"]);
  // The exact rule "Allow always" would save, in plain words, and the narrower choice beside it.
  await expect(card.getByTestId("always-saves")).toContainText("Run touch with any arguments, for this session");
  await expect(card.getByTestId("always-option")).toHaveCount(2);
  await expect(card.getByTestId("permission-reach")).toContainText("may change only the workspace, without network");
  await page.screenshot({ path: "e2e/screenshots/permission-card-desktop.png", fullPage: true });
  await card.getByTestId("allow-once").click();

  // Once is not remembered: the next touch asks again.
  await expect(card.getByTestId("permission-command")).toHaveText("$ touch two.txt", { timeout: 15_000 });
  await card.getByTestId("always-scope").selectOption("workspace");
  await expect(card.getByTestId("always-saves")).toContainText("every session in this workspace");
  await card.getByTestId("always-scope").selectOption("session");
  await card.getByTestId("allow-always").click();

  // touch three.txt is covered by "touch *": the next ask is the write, with its diff.
  await expect(card.getByTestId("permission-diff")).toContainText("+nope", { timeout: 15_000 });
  await card.getByTestId("permission-message").fill("Do not create secret files.");
  await card.getByTestId("reject").click();
  await expect(page.getByTestId("timeline")).toContainText("Understood, leaving secret.txt alone.", {
    timeout: 15_000,
  });
  await expect(card).toHaveCount(0);

  const events = await eventsOf(request, id);
  const asked = events
    .filter((e) => e.type === "permission.asked")
    .map((e) => (e.payload.patterns as string[]).join(" "));
  expect(asked).toEqual(["touch one.txt", "touch two.txt", expect.stringContaining("secret.txt")]);
  expect(
    events.filter((e) => e.type === "permission.replied").map((e) => [e.payload.reply, e.payload.message]),
  ).toEqual([
    ["once", undefined],
    ["always", undefined],
    ["reject", "Do not create secret files."],
  ]);
  const results = events.filter((e) => e.type === "tool.result").map((e) => [e.payload.tool, e.payload.ok]);
  expect(results).toEqual([
    ["bash", true],
    ["bash", true],
    ["bash", true],
    ["write", false],
  ]);
  const rejected = events.find((e) => e.type === "tool.result" && e.payload.tool === "write");
  expect(String(rejected?.payload.error)).toContain("Do not create secret files.");
  const grants = (await (await request.get(`/api/permissions?sessionId=${id}&status=always`)).json()) as {
    permissions: { always: string[]; scope: string }[];
  };
  expect(grants.permissions.map((p) => [p.always, p.scope])).toEqual([[["touch *"], "session"]]);

  // Saved rules are listed on the session and can be revoked.
  await page.reload();
  const saved = page.getByTestId("saved-permissions");
  await saved.locator("summary").click();
  await expect(saved.getByTestId("saved-permission")).toHaveText([/Run touch with any arguments.*this session/]);
  await saved.getByTestId("revoke-permission").click();
  await expect(page.getByTestId("saved-permissions")).toHaveCount(0);
  expect(((await (await request.get(`/api/grants?sessionId=${id}`)).json()) as { grants: unknown[] }).grants).toEqual(
    [],
  );
});

test("permission card: a narrower rule can be picked before saving, and a control file can only be allowed once", async ({
  page,
  request,
}) => {
  const id = await scripted(
    request,
    [
      call("bash", { command: "mkdir -p docs" }),
      call("bash", { command: "mkdir more" }),
      call("write", { path: ".plangate/config.json", content: "{}\n" }),
      { text: "done" },
    ],
    { mode: "acceptEdits" },
  );
  await say(request, id, "go");
  await waitForStatus(request, id, "awaiting_permission");
  await page.goto(`/sessions/${id}`);
  const card = page.getByTestId("permission-card");
  await card.getByLabel("exactly mkdir -p docs").check();
  await expect(card.getByTestId("always-saves")).toContainText("Run exactly mkdir -p docs, for this session");
  await card.getByTestId("allow-always").click();
  // Exactly that text was saved: the next mkdir asks again.
  await expect(card.getByTestId("permission-command")).toHaveText("$ mkdir more", { timeout: 15_000 });
  await card.getByTestId("allow-once").click();
  await expect(card.getByTestId("permission-control")).toBeVisible({ timeout: 15_000 });
  await expect(card.getByTestId("allow-always")).toHaveCount(0);
  await page.screenshot({ path: "e2e/screenshots/permission-card-control-file.png", fullPage: true });
  await card.getByTestId("reject").click();
  await expect(page.getByTestId("timeline")).toContainText("done", { timeout: 15_000 });
  const grants = (
    (await (await request.get(`/api/grants?sessionId=${id}`)).json()) as {
      grants: { pattern: string; exact: boolean }[];
    }
  ).grants;
  expect(grants.map((g) => [g.pattern, g.exact])).toEqual([["mkdir -p docs", true]]);
});

test("question card: the agent's question is answered from the page and the model reads the answer", async ({
  page,
  request,
}) => {
  const question = {
    questions: [
      {
        question: "Which store should the todos use?",
        header: "Store",
        options: [{ label: "SQLite" }, { label: "Memory", description: "lost on restart" }],
      },
    ],
  };
  const id = await scripted(request, [call("question", question), { text: "Going with the answer." }], {
    mode: "default",
  });
  await say(request, id, "ask me");
  await waitForStatus(request, id, "awaiting_review");
  await page.goto(`/sessions/${id}`);
  const card = page.getByTestId("question-card");
  await expect(card).toContainText("Store: Which store should the todos use?");
  // A waiting question takes the focus, like a review or an ask.
  await expect(card).toBeFocused();
  await expect(card.getByTestId("send-answers")).toBeDisabled();
  await card.getByLabel("SQLite").check();
  await card.getByTestId("send-answers").click();
  await expect(page.getByTestId("timeline")).toContainText("Going with the answer.", { timeout: 15_000 });
  const result = (await eventsOf(request, id)).find((e) => e.type === "tool.result" && e.payload.tool === "question");
  expect(String(result?.payload.output)).toContain("SQLite");
});
