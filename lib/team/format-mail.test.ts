import { describe, expect, it } from "vitest";
import type { MailView } from "./mailbox";
import { formatMail } from "./format-mail";

const mail = (type: MailView["type"], payload: Record<string, unknown>, requestId: string | null = null): MailView => ({
  id: "m",
  teamId: "t",
  seq: 1,
  from: "ses_a",
  to: "ses_lead",
  type,
  requestId,
  payload,
  status: "unread",
  createdAt: "",
  readAt: null,
});

describe("formatMail", () => {
  it.each<[string, MailView, RegExp]>([
    [
      "a plan request names the request and how to answer",
      mail("plan_approval_request", { version: 2, planFilePath: "/w/p.md", planContent: "# Plan" }, "rev_1"),
      /plan_approval_request from alice \(requestId rev_1, version 2, file \/w\/p\.md\):\n# Plan\nAnswer with send_message \{to: "alice", type: "plan_approval_response", requestId: "rev_1"/,
    ],
    [
      "a rejection carries the feedback",
      mail("plan_approval_response", { approve: false, feedback: "add tests" }, "rev_1"),
      /from alice \(requestId rev_1\): rejected\. Feedback: add tests$/,
    ],
    ["an approval", mail("plan_approval_response", { approve: true }, "rev_1"), /: approved$/],
    ["a plain message", mail("message", { text: "done with the API" }), /message from alice: done with the API$/],
  ])("%s", (_name, m, want) => {
    expect(formatMail([m], { ses_a: "alice" })).toMatch(want);
  });

  it("keeps several messages in order under one header, unknown senders by id", () => {
    const text = formatMail(
      [mail("message", { text: "one" }), { ...mail("message", { text: "two" }), from: "ses_x" }],
      { ses_a: "alice" },
    );
    expect(text).toBe("[Team mailbox]\n\nmessage from alice: one\n\nmessage from ses_x: two");
  });
});
