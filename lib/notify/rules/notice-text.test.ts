import { describe, expect, it } from "vitest";
import { type NoticeFacts, noticeMessage, noticeSubject } from "./notice-text";

const facts = (over: Partial<NoticeFacts> = {}): NoticeFacts => ({
  kind: "waiting",
  itemKind: "plan-review",
  title: "Add a ping route",
  workspace: "/srv/app",
  askedBy: "Sam",
  needs: "1 of 2 approvals",
  decision: null,
  verification: null,
  link: "https://desk.example.com/desk?item=rev_1",
  ...over,
});

describe("a notice's words", () => {
  it.each([
    [facts(), "A plan waits for you: Add a ping route"],
    [facts({ kind: "reminder" }), "Reminder: a plan still waits for you: Add a ping route"],
    [facts({ kind: "escalation" }), "Nobody has acted: a plan waits in /srv/app: Add a ping route"],
    [facts({ kind: "decided", decision: { word: "approve", by: "Ada" } }), "Approved by Ada: Add a ping route"],
    [facts({ kind: "decided", decision: { word: "reject", by: null } }), "Changes requested: Add a ping route"],
    [facts({ itemKind: "permission" }), "A permission ask waits for you: Add a ping route"],
    [facts({ kind: "verification", verification: "2 items failed" }), "Verification failed: Add a ping route"],
    [facts({ title: "a\r\nBcc: x@evil.test" }), "A plan waits for you: a Bcc: x@evil.test"],
  ])("%#: %s", (f, subject) => {
    expect(noticeSubject(f)).toBe(subject);
  });

  it("says who asked, what is needed and one link, in text and in HTML", () => {
    const m = noticeMessage(facts());
    expect(m.text).toContain("A plan from Sam waits for your decision.");
    expect(m.text).toContain("Still needed: 1 of 2 approvals");
    expect(m.text.match(/https?:\/\//g)).toHaveLength(1);
    expect(m.html).toContain('<a href="https://desk.example.com/desk?item=rev_1">');
  });

  it("never lets a title, a name or a workspace become markup", () => {
    const m = noticeMessage(facts({ title: '<img src=x onerror="alert(1)">', askedBy: "<script>x</script>" }));
    expect(m.html).not.toMatch(/<img|<script/);
    expect(m.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(m.text).toContain('<img src=x onerror="alert(1)">');
  });
});
