import { describe, expect, it } from "vitest";
import type { NewEvent } from "./events";
import { asClaim, countClaims, signedLine } from "./imported-claims";

describe("asClaim", () => {
  it.each<[string, NewEvent, Record<string, unknown>]>([
    [
      "a plan decision's signer becomes the file's claim",
      { type: "review.answered", payload: { reviewId: "r", decision: "approve", by: "Olivia" } },
      { reviewId: "r", decision: "approve", imported: true, claimedBy: "Olivia" },
    ],
    [
      "a policy approval's signer too",
      { type: "review.approved", payload: { reviewId: "r", by: "Olivia", summary: "1 of 2" } },
      { reviewId: "r", summary: "1 of 2", imported: true, claimedBy: "Olivia" },
    ],
    [
      "an ask's reply's signer too",
      { type: "permission.replied", payload: { requestId: "p", reply: "once", by: "Olivia" } },
      { requestId: "p", reply: "once", imported: true, claimedBy: "Olivia" },
    ],
    [
      "a claim read back from an earlier import stays a claim",
      { type: "permission.replied", payload: { requestId: "p", reply: "once", claimedBy: "Olivia", imported: true } },
      { requestId: "p", reply: "once", imported: true, claimedBy: "Olivia" },
    ],
    [
      "an unsigned decision is still marked as the file's",
      { type: "review.answered", payload: { reviewId: "r", decision: "abandon" } },
      { reviewId: "r", decision: "abandon", imported: true },
    ],
    [
      "a notice (the server's voice) is marked as the file's",
      { type: "notice", payload: { level: "info", text: "Plan approved by Olivia" } },
      { level: "info", text: "Plan approved by Olivia", imported: true },
    ],
    ["anything else is left as it is", { type: "message.user", payload: { text: "hi" } }, { text: "hi" }],
  ])("%s", (_name, event, payload) => {
    const claimed = asClaim(event);
    expect(claimed.payload).toEqual(payload);
    expect("by" in claimed.payload).toBe(false);
  });

  it("counts the claims about a signer", () => {
    const events: NewEvent[] = [
      { type: "review.answered", payload: { reviewId: "r", decision: "approve", by: "A" } },
      { type: "review.answered", payload: { reviewId: "r", decision: "abandon" } },
      { type: "permission.replied", payload: { requestId: "p", reply: "reject", by: "B" } },
    ];
    expect(countClaims(events.map(asClaim))).toBe(2);
  });
});

describe("signedLine", () => {
  it.each<[string, Parameters<typeof signedLine>, string]>([
    ["signed here", ["Plan approved", { by: "Ada" }, ": ship it"], "Plan approved by Ada: ship it"],
    ["nobody signed", ["Review set aside", {}], "Review set aside"],
    [
      "the file's claim",
      ["Plan approved", { imported: true, claimedBy: "Olivia" }],
      "Imported: the file says plan approved by Olivia",
    ],
    [
      "a `by` on an imported event is never shown as a signature",
      ["Allowed once", { imported: true, by: "Olivia" }],
      "Imported: the file says allowed once",
    ],
  ])("%s", (_name, args, line) => {
    expect(signedLine(...args)).toBe(line);
  });
});
