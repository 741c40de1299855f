import { describe, expect, it } from "vitest";
import type { Actor } from "../auth/rules/rights";
import { DEFAULT_POLICY, type Approver } from "./rules/review-policy";
import { type StandingFacts, standingOf } from "./check-decider";

// Issue 42, point 3: who may decide and whose approval counts, the one answer for the server, desk and card.
const WS = "/w";
const person = (userId: string, role: "member" | "reviewer" | "owner" = "reviewer"): Actor => ({
  kind: "person",
  userId,
  name: userId,
  memberships: [{ root: WS, role }],
});
const me = (userId: string): Approver => ({ by: "person", userId, name: userId, email: `${userId}@x` });
const facts = (over: Partial<StandingFacts> & { approvals?: number; starter?: string; self?: boolean } = {}) => ({
  workspace: WS,
  lead: over.lead ?? false,
  leadPeople: over.leadPeople ?? null,
  needs: {
    policy: { ...DEFAULT_POLICY, approvals: over.approvals ?? 1, allowSelfApproval: over.self ?? true },
    owners: [],
    files: [],
    starter: over.starter ?? null,
    approvals: over.needs?.approvals ?? [],
    plain: (over.approvals ?? 1) === 1 && (over.self ?? true),
  },
});
const LEAD = { workspace: WS, startedBy: "lea", leads: [] };

describe("standingOf", () => {
  it.each([
    ["a reviewer, plain policy", facts(), "rev", true, "desk", null],
    ["a member may not decide", facts(), "mem", false, null, "forbidden"],
    [
      "teammate's plan, plain policy, not a lead person",
      facts({ lead: true, leadPeople: LEAD }),
      "rev",
      false,
      null,
      "forbidden",
    ],
    [
      "teammate's plan, plain policy, the lead's person",
      facts({ lead: true, leadPeople: LEAD }),
      "lea",
      true,
      "mailbox",
      null,
    ],
    [
      "teammate's plan, 2 approvals, a reviewer: record-only",
      facts({ lead: true, leadPeople: LEAD, approvals: 2 }),
      "rev",
      true,
      "record-only",
      null,
    ],
    [
      "self-approval off, the starter",
      facts({ approvals: 2, self: false, starter: "rev" }),
      "rev",
      false,
      null,
      "forbidden",
    ],
  ] as const)("%s", (_name, f, who, counts, via, code) => {
    const actor = person(who, who === "mem" ? "member" : "reviewer");
    const s = standingOf(f, { actor, me: me(who) });
    expect([s.counts, s.via, s.code]).toEqual([counts, via, code]);
    if (!counts) expect(s.reason).not.toBe("");
  });

  it("an approval that already stands does not count again, and says when it was given and what waits", () => {
    const f = facts({ approvals: 2 });
    f.needs.approvals = [{ ...me("bo"), at: "2026-01-01T10:02:00.000Z" }];
    const s = standingOf(f, { actor: person("bo"), me: me("bo") });
    expect([s.counts, s.code, s.approvedAt]).toEqual([false, "already_decided", "2026-01-01T10:02:00.000Z"]);
    expect(s.reason).toBe("You approved at 10:02 · waiting for a reviewer");
    expect(standingOf(f, { actor: person("cy"), me: me("cy") }).counts).toBe(true);
  });

  it("the mailbox route takes only the lead's people", () => {
    const f = facts({ lead: true, leadPeople: LEAD, approvals: 2 });
    expect(standingOf(f, { actor: person("rev"), me: me("rev") }, "mailbox").code).toBe("forbidden");
    expect(standingOf(f, { actor: person("lea"), me: me("lea") }, "mailbox").via).toBe("mailbox");
  });
});
