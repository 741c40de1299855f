import { describe, expect, it } from "vitest";
import type { NewEvent } from "./events";
import { applyEvent, emptyState, foldEvents, type SessionState } from "./fold";

const created: NewEvent = {
  type: "session.created",
  payload: { title: "t", workspace: "/w", agent: "build", model: "offline", mode: "default" },
};
const toPlan: NewEvent = {
  type: "mode.changed",
  payload: { from: "default", to: "plan", prePlanMode: "default", cause: "user" },
};
const fromPlan: NewEvent = {
  type: "mode.changed",
  payload: { from: "plan", to: "default", prePlanMode: null, cause: "review" },
};
const turn = (id: string): NewEvent => ({ type: "turn.started", payload: { turnId: id } });
const end = (id: string): NewEvent => ({ type: "turn.ended", payload: { turnId: id, reason: "done" } });
const ask = (id: string): NewEvent => ({
  type: "permission.asked",
  payload: { requestId: id, tool: "bash", permission: "bash", patterns: ["ls"] },
});
const reply = (id: string): NewEvent => ({ type: "permission.replied", payload: { requestId: id, reply: "once" } });
const review = (id: string): NewEvent => ({ type: "review.asked", payload: { reviewId: id, kind: "plan-review" } });
const answered = (id: string): NewEvent => ({
  type: "review.answered",
  payload: { reviewId: id, decision: "approve" },
});
const queue = (target: "plan" | "default" | null): NewEvent => ({
  type: "mode.queued",
  payload: { target, cause: "command" },
});

type Case = [string, NewEvent[], Partial<SessionState>];

const retrying = (turnId: string, attempt: number): NewEvent => ({
  type: "model.retrying",
  payload: { turnId, attempt, of: 5, retryAt: "2026-12-01T10:00:04Z", reason: "503 Service Unavailable" },
});
const said = (usage?: { input: number; output: number; cacheRead?: number }): NewEvent => ({
  type: "message.assistant",
  payload: { text: "x", ...(usage ? { usage } : {}) },
});

const cases: Case[] = [
  [
    "a retry pending",
    [created, turn("a"), retrying("a", 2)],
    {
      status: "running",
      retry: { attempt: 2, of: 5, retryAt: "2026-12-01T10:00:04Z", reason: "503 Service Unavailable" },
    },
  ],
  ["a retry for another turn ignored", [created, turn("a"), retrying("b", 2)], { retry: null }],
  ["a step clears the retry", [created, turn("a"), retrying("a", 2), said()], { retry: null }],
  [
    "the turn's end clears the retry",
    [created, turn("a"), retrying("a", 3), end("a")],
    { retry: null, status: "idle" },
  ],
  [
    "an error after the last retry is resumable",
    [created, turn("a"), retrying("a", 5), { type: "turn.ended", payload: { turnId: "a", reason: "error" } }],
    { retry: null, status: "interrupted", interrupted: true },
  ],
  [
    "an abort is not",
    [created, turn("a"), { type: "turn.ended", payload: { turnId: "a", reason: "aborted" } }],
    { status: "idle", interrupted: false },
  ],
  [
    "usage sums per turn and session",
    [created, turn("a"), said({ input: 10, output: 2 }), said({ input: 20, output: 3, cacheRead: 15 }), end("a")],
    { turnUsage: { input: 30, output: 5, cacheRead: 15 }, usage: { input: 30, output: 5, cacheRead: 15 } },
  ],
  [
    "a new turn starts its usage at zero",
    [created, turn("a"), said({ input: 10, output: 2 }), end("a"), turn("b"), said({ input: 7, output: 1 })],
    { turnUsage: { input: 7, output: 1 }, usage: { input: 17, output: 3 } },
  ],
  [
    "steps without usage add nothing",
    [created, turn("a"), said(), said()],
    { turnUsage: { input: 0, output: 0 }, usage: { input: 0, output: 0 } },
  ],
  ["empty log", [], { mode: "default", status: "idle", lastSeq: 0, plan: { active: false, pending: false } }],
  ["created", [created], { title: "t", workspace: "/w", status: "idle", lastSeq: 1 }],
  [
    "created in plan",
    [{ ...created, payload: { ...created.payload, mode: "plan", prePlanMode: "acceptEdits" } } as NewEvent],
    { mode: "plan", prePlanMode: "acceptEdits", plan: { active: true, pending: false } },
  ],
  ["enter plan", [created, toPlan], { mode: "plan", prePlanMode: "default", plan: { active: true, pending: false } }],
  [
    "enter then leave plan",
    [created, toPlan, fromPlan],
    { mode: "default", prePlanMode: null, plan: { active: false, pending: false } },
  ],
  ["turn running", [created, turn("a")], { status: "running", openTurnId: "a" }],
  ["turn ended", [created, turn("a"), end("a")], { status: "idle", openTurnId: null }],
  [
    "turn interrupted",
    [created, turn("a"), { type: "turn.interrupted", payload: { turnId: "a" } }],
    { status: "interrupted", interrupted: true },
  ],
  [
    "interrupted then resumed",
    [created, turn("a"), { type: "turn.interrupted", payload: { turnId: "a" } }, turn("b")],
    { status: "running", interrupted: false },
  ],
  [
    "permission pending",
    [created, turn("a"), ask("p1")],
    { status: "awaiting_permission", pendingPermissions: ["p1"] },
  ],
  [
    "two asks, one replied",
    [created, turn("a"), ask("p1"), ask("p2"), reply("p1")],
    { status: "awaiting_permission", pendingPermissions: ["p2"] },
  ],
  ["all asks replied", [created, turn("a"), ask("p1"), reply("p1")], { status: "running", pendingPermissions: [] }],
  [
    "review pending wins over asks",
    [created, turn("a"), ask("p1"), review("r1")],
    { status: "awaiting_review", pendingReview: { id: "r1", kind: "plan-review" } },
  ],
  ["review answered", [created, turn("a"), review("r1"), answered("r1")], { status: "running", pendingReview: null }],
  [
    "joined a team",
    [
      created,
      {
        type: "team.joined",
        payload: {
          teamId: "team_1",
          role: "teammate",
          name: "alice",
          leadSessionId: "ses_l",
          requirePlanApproval: true,
        },
      },
    ],
    { team: { id: "team_1", role: "teammate", name: "alice", leadSessionId: "ses_l", requirePlanApproval: true } },
  ],
  [
    "a fork leaves the team",
    [
      created,
      { type: "team.joined", payload: { teamId: "team_1", role: "lead", name: "lead", leadSessionId: "ses_l" } },
      { type: "session.forked", payload: { fromSessionId: "ses_l", atSeq: 2 } },
    ],
    { team: null },
  ],
  [
    "a verification changes no status",
    [
      created,
      {
        type: "verification.completed",
        payload: { verificationId: "ver_1", planVersion: 1, status: "pass", method: "deterministic", summary: "Pass" },
      },
    ],
    { status: "idle", lastSeq: 2 },
  ],
  [
    "answer for another review ignored",
    [created, review("r1"), answered("r0")],
    { pendingReview: { id: "r1", kind: "plan-review" } },
  ],
  [
    "queued plan while running",
    [created, turn("a"), queue("plan")],
    { queuedMode: "plan", plan: { active: false, pending: true } },
  ],
  [
    "queued choice cleared",
    [created, turn("a"), queue("plan"), queue(null)],
    { queuedMode: null, plan: { active: false, pending: false } },
  ],
  [
    "queued choice applied at boundary",
    [created, turn("a"), queue("plan"), toPlan],
    { queuedMode: null, plan: { active: true, pending: false } },
  ],
  [
    "queued off while in plan",
    [created, toPlan, turn("a"), queue("default")],
    { plan: { active: true, pending: true } },
  ],
  ["queued same state is not pending", [created, toPlan, queue("plan")], { plan: { active: true, pending: false } }],
  [
    "fork clears running bits, keeps plan",
    [created, toPlan, turn("a"), ask("p"), { type: "session.forked", payload: { fromSessionId: "s", atSeq: 4 } }],
    { status: "idle", plan: { active: true, pending: false }, pendingPermissions: [] },
  ],
  [
    "a verification's outcome stands until the next plan is submitted",
    [
      created,
      {
        type: "verification.completed",
        payload: { verificationId: "ver_1", planVersion: 1, status: "fail", method: "deterministic", summary: "x" },
      },
    ],
    { verification: "fail" },
  ],
  [
    "messages only advance seq",
    [
      created,
      { type: "message.user", payload: { text: "hi" } },
      { type: "message.assistant", payload: { text: "yo" } },
    ],
    { lastSeq: 3, status: "idle" },
  ],
];

describe("foldEvents", () => {
  it.each(cases)("%s", (_name, events, expected) => {
    expect(foldEvents(events)).toMatchObject(expected);
  });

  it("stops at uptoSeq for replay", () => {
    const events = [created, toPlan, fromPlan].map((e, i) => ({ ...e, seq: i + 1, at: "" }));
    expect(foldEvents(events, 2).mode).toBe("plan");
    expect(foldEvents(events, 3).mode).toBe("default");
  });

  it("is incremental: folding in two halves equals folding at once", () => {
    const all = [created, turn("a"), ask("p"), toPlan, reply("p"), review("r"), answered("r"), end("a")];
    const half = foldEvents(all.slice(0, 4));
    expect(foldEvents(all.slice(4), Infinity, half)).toEqual(foldEvents(all));
  });

  it("does not mutate the state it is given", () => {
    const before = foldEvents([created, turn("a")]);
    const copy = structuredClone(before);
    applyEvent(before, ask("p"));
    expect(before).toEqual(copy);
    expect(emptyState.pendingPermissions).toEqual([]);
  });
});
