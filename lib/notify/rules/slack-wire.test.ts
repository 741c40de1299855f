import { describe, expect, it } from "vitest";
import type { NoticeFacts } from "./notice-text";
import {
  checkSlackSignature,
  dialogFeedback,
  slackMessage,
  slackPayload,
  slackSignature,
  slackUserKey,
} from "./slack-wire";

const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const BODY = "payload=%7B%22type%22%3A%22block_actions%22%7D";
const NOW = 1_765_000_000;

describe("Slack's request signature", () => {
  const signed = slackSignature(SECRET, String(NOW), BODY);
  it.each([
    ["a request signed now", { timestamp: String(NOW), signature: signed }, true, ""],
    ["four minutes old", { timestamp: String(NOW), signature: signed, nowS: NOW + 240 }, true, ""],
    ["six minutes old", { timestamp: String(NOW), signature: signed, nowS: NOW + 360 }, false, "five minutes"],
    ["from the future", { timestamp: String(NOW), signature: signed, nowS: NOW - 360 }, false, "five minutes"],
    [
      "another secret",
      { timestamp: String(NOW), signature: slackSignature("x".repeat(32), String(NOW), BODY) },
      false,
      "does not match",
    ],
    ["a changed body", { timestamp: String(NOW), signature: signed, body: `${BODY}x` }, false, "does not match"],
    ["another timestamp", { timestamp: String(NOW + 1), signature: signed }, false, "does not match"],
    ["no signature", { timestamp: String(NOW), signature: null }, false, "X-Slack-Signature"],
    ["v1 scheme", { timestamp: String(NOW), signature: signed.replace("v0=", "v1=") }, false, "X-Slack-Signature"],
    ["no timestamp", { timestamp: null, signature: signed }, false, "Timestamp"],
    ["a word for a timestamp", { timestamp: "soon", signature: signed }, false, "Timestamp"],
  ])("%s", (_name, over, ok, reason) => {
    const verdict = checkSlackSignature({ secret: SECRET, body: BODY, nowS: NOW, ...over });
    expect(verdict.ok).toBe(ok);
    if (!verdict.ok) expect(verdict.reason).toContain(reason);
  });
});

describe("interaction payloads", () => {
  it("reads a button press and a dialog, and keys the Slack user by team and user", () => {
    const pressed = slackPayload.parse({
      type: "block_actions",
      user: { id: "U1", team_id: "T1" },
      team: { id: "T1" },
      actions: [{ action_id: "plangate-approve", value: "rev_1" }],
    });
    expect(slackUserKey(pressed)).toBe("T1:U1");
    const dialog = slackPayload.parse({
      type: "view_submission",
      user: { id: "U1" },
      team: { id: "T1" },
      view: {
        callback_id: "plangate-changes",
        private_metadata: "rev_1",
        state: { values: { b: { a: { value: " Fix it " } } } },
      },
    });
    expect(dialog.type === "view_submission" && dialogFeedback(dialog)).toBe("Fix it");
  });
  it.each([
    [{ type: "shortcut", user: { id: "U1" } }],
    [{ type: "block_actions", user: { id: "u1<script>" }, actions: [{ action_id: "x" }] }],
    [{ type: "block_actions", user: { id: "U1" }, actions: [] }],
    [
      {
        type: "view_submission",
        user: { id: "U1" },
        view: { callback_id: "other", private_metadata: "", state: { values: {} } },
      },
    ],
  ])("refuses %j", (raw) => {
    expect(slackPayload.safeParse(raw).success).toBe(false);
  });
});

describe("the message", () => {
  const facts: NoticeFacts = {
    kind: "waiting",
    itemKind: "plan-review",
    title: "<!channel> & <https://evil.test|click>",
    workspace: "/srv/app",
    askedBy: "Sam",
    needs: null,
    decision: null,
    verification: null,
    link: "https://desk.example.test/desk?item=rev_1",
  };
  it("escapes what an agent or a title controls, so it cannot ping a channel or hide a link", () => {
    const message = slackMessage(facts, "rev_1");
    // The top-level text is the notification's preview: escaped like the blocks.
    expect(message.text).not.toMatch(/<!channel>|<https:/);
    const text = JSON.stringify(message.blocks);
    expect(text).not.toContain("<!channel>");
    expect(text).not.toContain("<https://evil.test");
    expect(text).toContain("&lt;!channel&gt; &amp; &lt;https://evil.test|click&gt;");
  });
  it("offers Approve and Request changes only while a plan waits; a decision leaves only the link", () => {
    const ids = (f: NoticeFacts) =>
      JSON.stringify(slackMessage(f, "rev_1").blocks).match(/plangate-(approve|changes|open)/g) ?? [];
    expect(ids(facts)).toEqual(["plangate-approve", "plangate-changes", "plangate-open"]);
    expect(ids({ ...facts, kind: "decided", decision: { word: "approve", by: "Ada" } })).toEqual(["plangate-open"]);
    expect(ids({ ...facts, itemKind: "permission" })).toEqual(["plangate-open"]);
  });
  it("stays within Slack's 3000 characters however long a workspace path an agent sends", () => {
    const long = slackMessage({ ...facts, workspace: `/${"a".repeat(4000)}` }, "rev_1", Array(60).fill("UADA"));
    const section = (long.blocks[0] as unknown as { text: { text: string } }).text.text;
    expect(section.length).toBeLessThanOrEqual(3000);
    expect(section).toMatch(/and 20 more$/);
  });
  it("names the people it is for by their Slack ids", () => {
    expect(JSON.stringify(slackMessage(facts, "rev_1", ["UADA", "UBO"]).blocks)).toContain("For <@UADA>, <@UBO>");
  });
});
