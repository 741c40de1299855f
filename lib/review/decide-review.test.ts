import { describe, expect, it } from "vitest";
import type { Actor, Signer } from "../auth/rules/rights";
import { DEFAULT_POLICY, type Approver } from "./rules/review-policy";
import { type DecisionInput, decide } from "./decide-review";
import type { Decider, Outcome, ReviewFacts, Row } from "./review-types";

// The one decision, pure: (facts, decision, who) → events, rows and effects, or a refusal that writes nothing.
const WS = "/w";
const PLAN = "# Plan\n\n1. Change `src/a.ts`\n2. Test it\n";
const actor = (userId: string, role: "member" | "reviewer" | "owner" = "reviewer"): Actor => ({
  kind: "person",
  userId,
  name: userId,
  memberships: [{ root: WS, role }],
});
const me = (userId: string): Approver => ({ by: "person", userId, name: userId, email: `${userId}@x` });
const signer = (userId: string): Signer => ({ by: "person", userId, name: userId });
const person = (userId: string, role?: "member" | "reviewer" | "owner", via: "desk" | "mailbox" = "desk"): Decider => ({
  by: "person",
  via,
  actor: actor(userId, role),
  signer: signer(userId),
});

type Over = { approvals?: number; self?: boolean; starter?: string; who?: string; outside?: boolean; open?: boolean };
function facts(o: Over = {}): ReviewFacts {
  const approvals = o.approvals ?? 1;
  const self = o.self ?? true;
  return {
    review: { id: "rev_1", sessionId: "ses_1", status: "pending", lead: false },
    version: {
      id: "ver_1",
      planId: "pln_1",
      version: 1,
      content: PLAN,
      filePath: ".plangate/plans/p.md",
      toolCallId: "call_1",
      workspace: WS,
      agent: o.outside ? "claude-code" : "build",
      outside: o.outside ?? false,
      receives: null,
    },
    needs: {
      policy: { ...DEFAULT_POLICY, approvals, allowSelfApproval: self },
      owners: [],
      files: ["src/a.ts"],
      starter: o.starter ?? null,
      approvals: [],
      plain: approvals === 1 && self,
    },
    me: me(o.who ?? "rev"),
    leadPeople: null,
    roots: new Map(),
    state: { mode: "plan", prePlanMode: "default", openTurnId: o.open === false ? null : "trn_1" },
    gates: { autoGateOpen: false, bypassEnabled: false },
    now: new Date("2026-12-06T10:00:00Z"),
    turnId: "trn_2",
  };
}

const kinds = (rows: Row[]) => rows.map((r) => r.kind);
const refusal = (o: Outcome) => ("refused" in o ? o.refused.code : null);

describe("decide()", () => {
  it.each<[string, Over, DecisionInput, Decider, string | null, string | null]>([
    ["a reviewer approves under a plain policy", {}, { decision: "approve" }, person("rev"), null, "closed"],
    ["a member may not approve", { who: "mem" }, { decision: "approve" }, person("mem", "member"), "forbidden", null],
    ["a member may not send back", { who: "mem" }, { decision: "reject" }, person("mem", "member"), "forbidden", null],
    [
      "the first of two approvals is recorded",
      { approvals: 2 },
      { decision: "approve" },
      person("rev"),
      null,
      "recorded",
    ],
    [
      // The adversary's attack: approval with an edited plan by someone whose approval does not count becomes a
      // send-back that rewrites the plan file. It is refused whole.
      "the starter, self-approval off, approves with an edit",
      { approvals: 2, self: false, starter: "rev" },
      { decision: "approve", plan: "# Mine now\n" },
      person("rev"),
      "forbidden",
      null,
    ],
    [
      "the starter, self-approval off, may still request changes",
      { approvals: 2, self: false, starter: "rev" },
      { decision: "reject", feedback: "more tests" },
      person("rev"),
      null,
      "closed",
    ],
    [
      "a reviewer approves with an edit under a policy: sent back",
      { approvals: 2 },
      { decision: "approve", plan: "# Better\n" },
      person("rev"),
      null,
      "closed",
    ],
    [
      "a lead's model may not approve under a policy",
      { approvals: 2 },
      { decision: "approve" },
      { by: "lead-model", mode: "acceptEdits", readOnly: false, personRequired: false, starterMay: true },
      "person_required",
      null,
    ],
    [
      "a terminal answer on our agent's plan",
      {},
      { decision: "approve" },
      { by: "terminal", answer: "approved" },
      "forbidden",
      null,
    ],
    [
      "a terminal answer on an outside agent's plan",
      { outside: true },
      { decision: "approve" },
      { by: "terminal", answer: "approved" },
      null,
      "closed",
    ],
  ])("%s", (_name, over, body, who, code, status) => {
    const out = decide(facts(over), body, who);
    expect(refusal(out)).toBe(code);
    if (!("refused" in out)) expect(out.status).toBe(status);
  });

  it("a decided review is refused, whoever decides", () => {
    const f = facts();
    f.review.status = "decided";
    expect(refusal(decide(f, { decision: "approve" }, person("rev")))).toBe("already_decided");
    expect(refusal(decide(f, { decision: "abandon" }, { by: "terminal", answer: "unknown" }))).toBe("already_decided");
  });

  it("a recorded approval carries every part of the review in its rows", () => {
    const out = decide(
      facts({ approvals: 2 }),
      { decision: "approve", feedback: "ok", comments: [{ lineStart: 3, lineEnd: 3, body: "why a.ts?" }] },
      person("rev"),
    );
    if ("refused" in out) throw new Error(out.refused.message);
    expect(kinds(out.rows)).toEqual(["approval", "comments", "audit"]);
    expect(out.events.map((e) => e.type)).toEqual(["review.approved"]);
  });

  it("a lead's answer from the mailbox closes the request with the review, in its rows", () => {
    const mail = { mailId: "msg_1", teamId: "tm_1", lead: "ses_lead", teammate: "ses_1", requestId: "rev_1" };
    const teammate = (approvals: number) => {
      const f = facts({ approvals, who: "lea" });
      return { ...f, review: { ...f.review, lead: true }, leadPeople: { workspace: WS, startedBy: "lea", leads: [] } };
    };
    const lead = person("lea", "reviewer", "mailbox");
    const out = decide(teammate(1), { decision: "reject", feedback: " more tests ", mail }, lead);
    if ("refused" in out) throw new Error(out.refused.message);
    expect(out.rows.find((r) => r.kind === "answer-mail")).toEqual({
      kind: "answer-mail",
      mail,
      approve: false,
      feedback: "more tests",
    });
    const recorded = decide(teammate(2), { decision: "approve", mail }, lead);
    if ("refused" in recorded) throw new Error(recorded.refused.message);
    // Not yet met: the request stays open.
    expect(recorded.status).toBe("recorded");
    expect(kinds(recorded.rows)).not.toContain("answer-mail");
    // Leaving plan mode sets the plan aside: the lead's people may, a reviewer who is not the lead's may not.
    const aside = { decision: "abandon", aside: true } as const;
    expect(refusal(decide(teammate(1), aside, person("lea")))).toBeNull();
    expect(refusal(decide(teammate(1), aside, person("rev")))).toBe("forbidden");
    // Someone who is not the lead's is refused on the mailbox route, and nothing is written.
    expect(refusal(decide(teammate(1), { decision: "approve", mail }, person("rev", "reviewer", "mailbox")))).toBe(
      "forbidden",
    );
  });

  it("the terminal's answer closes as answered elsewhere and ends the open turn, never counting as an approval", () => {
    const out = decide(facts({ outside: true }), { decision: "reject" }, { by: "terminal", answer: "rejected" });
    if ("refused" in out) throw new Error(out.refused.message);
    expect(out.rows).toEqual([
      expect.objectContaining({
        kind: "close",
        status: "answered_elsewhere",
        decision: "rejected",
        decidedBy: "terminal",
      }),
    ]);
    expect(out.events.map((e) => e.type)).toEqual(["review.answered", "tool.result", "turn.ended"]);
    expect(out.effects).toEqual([]);
  });

  it("an approval while our turn is open queues the mode change for the step boundary", () => {
    const out = decide(facts(), { decision: "approve" }, person("rev"));
    if ("refused" in out) throw new Error(out.refused.message);
    expect(out.events.map((e) => e.type)).toContain("mode.queued");
    expect(out.events.map((e) => e.type)).not.toContain("mode.changed");
    expect(kinds(out.rows)).toEqual(["close", "approval", "hold-baseline"]);
  });
});
