import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as interactions from "../../app/api/integrations/slack/interactions/route";
import * as linkRoute from "../../app/api/integrations/slack/link/route";
import { readEvents } from "../../lib/db/session-log/read-events";
import { resetEnvCache } from "../../lib/env";
import { startWebhooks, type WebhookRunner } from "../../lib/webhooks/runner";
import { awaitReview, settle, testApi, type Api } from "../helpers/api";
import { type FakeSlack, press, slackInteraction, startFakeSlack, submitChanges } from "../helpers/fake-slack";
import { exitWith, ofType } from "../helpers/plan-kit";
import { policyKit } from "../helpers/policy-kit";
import { waitFor } from "../helpers/poll";

// Issue 46, on both engines, against a Slack-shaped Web API and signed interactions: a plan's message goes to the
// channel an owner chose, naming only the linked people who can act; a signed press decides only for a linked
// person with the right, as that person "via Slack"; anything unsigned, old or replayed changes nothing.
const TOKEN = "xoxb-test-0123456789";
const SECRET = "slack-signing-secret-for-tests";
const ENV_KEYS = [
  "PLANGATE_SLACK_BOT_TOKEN",
  "PLANGATE_SLACK_SIGNING_SECRET",
  "PLANGATE_SLACK_API_URL",
  "PLANGATE_PUBLIC_URL",
];
let api: Api;
let slack: FakeSlack;
let runner: WebhookRunner;
// The runner's clock runs ahead of real time by what a test moves it on.
let ahead = 0;

beforeEach(async () => {
  slack = await startFakeSlack(TOKEN);
  api = testApi({
    env: {
      PLANGATE_SLACK_BOT_TOKEN: TOKEN,
      PLANGATE_SLACK_SIGNING_SECRET: SECRET,
      PLANGATE_SLACK_API_URL: slack.url,
      PLANGATE_PUBLIC_URL: "https://desk.example.test",
    },
  });
  ahead = 0;
  runner = startWebhooks(api.t.db, {
    sweepMs: 250,
    now: () => new Date(Date.now() + ahead),
    notices: { backoffMs: [100, 200], timeoutMs: 5_000 },
  });
});
afterEach(async () => {
  runner.stop();
  await runner.settled();
  await slack.close();
  await api.close();
  for (const k of ENV_KEYS) delete process.env[k];
  resetEnvCache();
});

const { person, setPolicy } = policyKit(() => api);

/** A plan waiting on review; `revises`: after a decision the agent submits a second version (else it finishes). */
async function pendingPlan(title = "Ping route", revises = true) {
  const res = await api.call("POST", "/api/sessions", {
    title,
    workspace: api.workspace,
    model: "scripted",
    script: [
      exitWith("# Add a ping route\n\n1. Change src/app.ts\n"),
      ...(revises ? [exitWith("# v2\n\n1. x\n")] : []),
      { text: "done" },
    ],
    mode: "plan",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const sessionId = res.body.session.id as string;
  expect((await api.call("POST", `/api/sessions/${sessionId}/messages`, { text: "plan it" })).status).toBe(202);
  return { sessionId, reviewId: await awaitReview(api, sessionId) };
}

async function send(payload: unknown, opts: { at?: number; signature?: string; secret?: string } = {}) {
  const res = await interactions.POST(slackInteraction(opts.secret ?? SECRET, payload, opts), {});
  const body = (await res.json()) as Record<string, unknown>;
  if (process.env.DEBUG_SLACK) console.log(res.status, JSON.stringify(body));
  return { status: res.status, body };
}

const status = async (reviewId: string) => (await api.t.db.review.findUnique({ where: { id: reviewId } }))?.status;

/** The one-time code Slack shows a Slack user who presses a button before linking. */
async function codeFor(slackUser: string, reviewId: string) {
  const before = slack.of("chat.postEphemeral").length;
  expect((await send(press(slackUser, "plangate-approve", reviewId))).status).toBe(200);
  const [said] = (await slack.waitFor("chat.postEphemeral", before + 1)).slice(before);
  expect(said?.args.user).toBe(slackUser);
  return String(said?.args.text).match(/\/account\/slack\?code=([\w-]+)/)?.[1] ?? "";
}

const linkWith = async (code: string, as: { cookie: string }) => {
  const res = await linkRoute.POST(
    new Request("http://127.0.0.1:3000/api/integrations/slack/link", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: as.cookie },
      body: JSON.stringify({ code }),
    }),
    {},
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/**
 * A Slack user links to a person the only way there is: a press, the ephemeral link, the person signed in, and
 * Slack saying that Slack user's email is the person's.
 */
async function link(slackUser: string, as: { cookie: string; email: string }, reviewId: string) {
  if (!slack.emails.has(slackUser)) slack.emails.set(slackUser, as.email);
  const code = await codeFor(slackUser, reviewId);
  const linked = await linkWith(code, as);
  expect(linked.status, JSON.stringify(linked.body)).toBe(200);
  return code;
}

const posted = (n: number) => slack.waitFor("chat.postMessage", n);
const textOf = (c: { args: Record<string, unknown> } | undefined) => JSON.stringify(c?.args.blocks ?? "");

describe("Slack", () => {
  it("posts to the owner's channel naming the linked people who can act; a linked reviewer's press approves, via Slack", async () => {
    await setPolicy({ notify: { slackChannel: "C0PLANS" } });
    const ada = await person("reviewer", "ada@example.com");
    const vic = await person("viewer", "vic@example.com");
    await person("owner", "olga@example.com");
    const first = await pendingPlan("First");
    const [message] = await posted(1);
    expect(message?.args.channel).toBe("C0PLANS");
    expect(message?.args.text).toBe("A plan waits for you: First");
    expect(textOf(message)).toContain(`https://desk.example.test/desk?item=${first.reviewId}`);
    expect(textOf(message)).toContain("plangate-approve");
    expect(textOf(message)).not.toContain("<@");

    // Pressing before linking did nothing but say how to link.
    await link("UADA", ada, first.reviewId);
    expect(await status(first.reviewId)).toBe("pending");
    await link("UVIC", vic, first.reviewId);
    expect(await status(first.reviewId)).toBe("pending");

    const second = await pendingPlan("Second");
    const [, again] = await posted(2);
    expect(textOf(again)).toContain("<@UADA>");
    // Vic is linked but may only read: not named, and a press of theirs is refused with why.
    expect(textOf(again)).not.toContain("UVIC");
    const told = slack.of("chat.postEphemeral").length;
    expect((await send(press("UVIC", "plangate-approve", second.reviewId))).status).toBe(200);
    const [refused] = (await slack.waitFor("chat.postEphemeral", told + 1)).slice(told);
    expect(String(refused?.args.text)).toMatch(/may not|role/i);
    expect(await status(second.reviewId)).toBe("pending");

    expect((await send(press("UADA", "plangate-approve", second.reviewId))).status).toBe(200);
    expect(await status(second.reviewId)).toBe("approved");
    const answered = ofType(await readEvents(api.t.db, second.sessionId), "review.answered");
    expect(answered.map((a) => [a.decision, a.by])).toEqual([["approve", "ada via Slack"]]);
    const row = await api.t.db.review.findUnique({ where: { id: second.reviewId } });
    expect([row?.deciderId, row?.credential]).toEqual([ada.userId, "slack:T0TEAM:UADA"]);
    // The channel's message now says who decided, and offers no button that decides.
    const [update] = await slack.waitFor("chat.update", 1);
    const waiting = await api.t.db.notice.findFirst({
      where: { itemId: second.reviewId, channel: "slack", kind: "waiting" },
    });
    expect(waiting?.ref).toMatch(/^C0PLANS \d+\.\d+$/);
    expect(update?.args).toMatchObject({ channel: "C0PLANS", ts: waiting?.ref?.split(" ")[1] });
    expect(update?.args.text).toBe("Approved by ada via Slack: Second");
    expect(textOf(update)).not.toContain("plangate-approve");
    await settle(api, second.sessionId);
  });

  it("with dm, each linked person who can act gets their own message, reminded on the policy's delay, all edited once decided", async () => {
    await setPolicy({ notify: { slackChannel: "dm", remindAfterMinutes: 5, escalateAfterMinutes: null } });
    const ada = await person("reviewer", "ada@example.com");
    const bo = await person("reviewer", "bo@example.com");
    await person("reviewer", "cy@example.com");
    const first = await pendingPlan("First");
    // Nobody is linked yet: a direct message has nowhere to go, so none is sent (once its ask is fanned out).
    await waitFor("the first plan's ask fanned out", async () => {
      await runner.sweep();
      await runner.settled();
      return (await api.t.db.eventOutbox.count()) === 0;
    });
    expect(slack.of("chat.postMessage")).toHaveLength(0);
    await link("UADA", ada, first.reviewId);
    await link("UBO", bo, first.reviewId);
    // Once approved the agent finishes: no second version comes to add messages of its own.
    const { sessionId, reviewId } = await pendingPlan("Second", false);
    const dms = await posted(2);
    expect(dms.map((m) => m.args.channel).sort()).toEqual(["UADA", "UBO"]);
    expect(dms.every((m) => !textOf(m).includes("<@"))).toBe(true);
    ahead = 6 * 60_000;
    await runner.sweep();
    const reminded = (await posted(4)).slice(2);
    expect(reminded.map((m) => [m.args.channel, m.args.text]).sort()).toEqual([
      ["UADA", "Reminder: a plan still waits for you: Second"],
      ["UBO", "Reminder: a plan still waits for you: Second"],
    ]);
    expect((await send(press("UBO", "plangate-approve", reviewId))).status).toBe(200);
    const updates = await slack.waitFor("chat.update", 4);
    expect(updates.map((u) => u.args.channel).sort()).toEqual(["UADA", "UADA", "UBO", "UBO"]);
    expect(new Set(updates.map((u) => u.args.text))).toEqual(new Set(["Approved by bo via Slack: Second"]));
    await settle(api, sessionId);
    const all = slack.of("chat.postMessage").map((m) => `${m.args.channel} ${m.args.text}`);
    expect(all, all.join(" / ")).toHaveLength(4);
  });

  it("refuses a bad signature, an old timestamp and a replayed press, changing nothing", async () => {
    await setPolicy({ approvals: 2, notify: { slackChannel: "C0PLANS" } });
    const ada = await person("reviewer", "ada@example.com");
    await person("reviewer", "bo@example.com");
    const { reviewId } = await pendingPlan();
    await link("UADA", ada, reviewId);
    const approvals = () => api.t.db.reviewApproval.count({ where: { reviewId } });

    // No signature at all: refused before the body is read.
    const bare = await interactions.POST(
      new Request("http://127.0.0.1:3000/api/integrations/slack/interactions", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `payload=${encodeURIComponent(JSON.stringify(press("UADA", "plangate-approve", reviewId)))}`,
      }),
      {},
    );
    expect(bare.status).toBe(401);
    const forged = await send(press("UADA", "plangate-approve", reviewId), { secret: "not-the-apps-secret-at-all" });
    expect(forged.status).toBe(401);
    expect(JSON.stringify(forged.body)).toMatch(/signature does not match/);
    const old = await send(press("UADA", "plangate-approve", reviewId), { at: Math.floor(Date.now() / 1000) - 600 });
    expect(old.status).toBe(401);
    expect(JSON.stringify(old.body)).toMatch(/more than five minutes old/);
    expect(await approvals()).toBe(0);

    const at = Math.floor(Date.now() / 1000);
    const pressed = press("UADA", "plangate-approve", reviewId);
    expect((await send(pressed, { at })).status).toBe(200);
    expect(await approvals()).toBe(1);
    // The same signed bytes again (a replay within the five minutes): refused, still one approval.
    const replay = await send(pressed, { at });
    expect(replay.status).toBe(401);
    expect(JSON.stringify(replay.body)).toMatch(/already acted on/);
    expect(await approvals()).toBe(1);
    expect(await status(reviewId)).toBe("pending");

    // A link code works once, for a person signed in as themselves.
    const code = await link("UBO", await person("reviewer", "cy@example.com"), reviewId);
    expect((await linkWith(code, ada)).status).toBe(404);
  });

  it("a link made for someone else's Slack account does not link to you: a stranger cannot decide as a reviewer", async () => {
    await setPolicy({ notify: { slackChannel: "dm" } });
    const ada = await person("reviewer", "ada@example.com");
    const { reviewId } = await pendingPlan();
    // Mallory, in the Slack workspace but no Plangate person, presses a button and sends Ada the link he was shown.
    slack.emails.set("UMAL", "mallory@example.net");
    const code = await codeFor("UMAL", reviewId);
    const tricked = await linkWith(code, ada);
    expect(tricked.status).toBe(403);
    expect(JSON.stringify(tricked.body)).toMatch(/email is not yours/);
    expect(await api.t.db.slackLink.count({ where: { userId: { not: null } } })).toBe(0);
    expect((await send(press("UMAL", "plangate-approve", reviewId))).status).toBe(200);
    expect(await status(reviewId)).toBe("pending");
    // A Slack app that may not read emails links nobody.
    const quiet = await codeFor("UQUIET", reviewId);
    expect((await linkWith(quiet, ada)).status).toBe(403);
    // Ada's own Slack account links, and she can take it back: her presses then decide nothing.
    await link("UADA", ada, reviewId);
    const off = await linkRoute.DELETE(
      new Request("http://127.0.0.1:3000/api/integrations/slack/link", {
        method: "DELETE",
        headers: { cookie: ada.cookie },
      }),
      {},
    );
    expect(await off.json()).toEqual({ unlinked: 1 });
    expect((await send(press("UADA", "plangate-approve", reviewId))).status).toBe(200);
    expect(await status(reviewId)).toBe("pending");
  });

  it("Request changes opens a dialog; its feedback sends the plan back to the agent, signed via Slack", async () => {
    await setPolicy({ notify: { slackChannel: "C0PLANS" } });
    const ada = await person("reviewer", "ada@example.com");
    const { sessionId, reviewId } = await pendingPlan();
    await link("UADA", ada, reviewId);
    expect((await send(press("UADA", "plangate-changes", reviewId))).status).toBe(200);
    const [dialog] = await slack.waitFor("views.open", 1);
    expect(dialog?.args.trigger_id).toBe(`trig-UADA-${reviewId}`);
    expect(dialog?.args.view).toMatchObject({
      type: "modal",
      callback_id: "plangate-changes",
      private_metadata: reviewId,
    });
    expect(await status(reviewId)).toBe("pending");

    const empty = await send(submitChanges("UADA", reviewId, "  "));
    expect(empty.body).toMatchObject({ response_action: "errors" });
    expect(await status(reviewId)).toBe("pending");
    const sent = await send(submitChanges("UADA", reviewId, "Add a test for the route"));
    expect(sent).toEqual({ status: 200, body: {} });
    expect(await status(reviewId)).toBe("rejected");
    const answered = ofType(await readEvents(api.t.db, sessionId), "review.answered");
    expect(answered.map((a) => [a.decision, a.feedback, a.by])).toEqual([
      ["reject", "Add a test for the route", "ada via Slack"],
    ]);
    await waitFor(
      "the agent's revised plan",
      async () => (await api.t.db.review.count({ where: { sessionId } })) === 2,
    );
    await settle(api, sessionId);
  });
});
