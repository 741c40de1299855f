import { describe, expect, it } from "vitest";
import type { NewEvent, SessionEvent } from "./log/events";
import { summarizeCall, timelineItems } from "./timeline-items";

const log = (events: NewEvent[]): SessionEvent[] =>
  events.map((e, i) => ({ ...e, seq: i + 1, at: "2026-01-01T00:00:00.000Z" }) as SessionEvent);

describe("summarizeCall", () => {
  const cases: [string, unknown, string][] = [
    ["bash", { command: "npm test" }, "npm test"],
    ["read", { path: "src/a.ts" }, "src/a.ts"],
    ["list", {}, "."],
    ["grep", { pattern: "TODO", path: "src" }, "TODO in src"],
    ["glob", { pattern: "**/*.ts" }, "**/*.ts"],
    ["task", { agent: "explore", description: "find the router" }, "explore: find the router"],
    ["exit_plan_mode", { plan: "# P" }, "plan submitted for review"],
    [
      "apply_patch",
      { patch: "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b.txt\n*** End Patch" },
      "a.txt, b.txt",
    ],
    ["question", { questions: [] }, '{"questions":[]}'],
    ["unknown", "x".repeat(300), `"${"x".repeat(158)}…`],
  ];
  it.each(cases)("%s %j", (tool, input, expected) => {
    expect(summarizeCall(tool, input)).toBe(expected);
  });
});

describe("timelineItems", () => {
  it("joins a result to its call, keeps the edit's diff and the failure's error", () => {
    const items = timelineItems(
      log([
        { type: "tool.called", payload: { callId: "c1", tool: "edit", input: { path: "a.ts" } } },
        { type: "tool.called", payload: { callId: "c2", tool: "bash", input: { command: "rm x" } } },
        {
          type: "tool.result",
          payload: { callId: "c1", tool: "edit", ok: true, output: "Edited a.ts", metadata: { diff: "-a\n+b" } },
        },
        { type: "tool.result", payload: { callId: "c2", tool: "bash", ok: false, error: "denied by plan mode" } },
      ]),
    );
    expect(items).toEqual([
      {
        kind: "tool",
        seq: 1,
        callId: "c1",
        tool: "edit",
        summary: "a.ts",
        status: "ok",
        output: "Edited a.ts",
        diff: "-a\n+b",
        at: expect.any(String),
        ms: 0,
      },
      {
        kind: "tool",
        seq: 2,
        callId: "c2",
        tool: "bash",
        summary: "rm x",
        status: "error",
        output: "denied by plan mode",
        diff: null,
        at: expect.any(String),
        ms: 0,
      },
    ]);
  });

  it("a call without a result is running; a result whose call is on an earlier page stands alone", () => {
    const items = timelineItems(
      log([
        { type: "tool.result", payload: { callId: "old", tool: "read", ok: true, output: { lines: 2 } } },
        { type: "tool.called", payload: { callId: "c3", tool: "read", input: { path: "b" } } },
      ]),
    );
    expect(items.map((i) => (i.kind === "tool" ? [i.callId, i.status, i.output] : i.kind))).toEqual([
      ["old", "ok", '{\n  "lines": 2\n}'],
      ["c3", "running", null],
    ]);
  });

  it("a call waiting on a person says so (not running); a plan sent back is returned, not failed", () => {
    const status = (events: NewEvent[]) =>
      timelineItems(log(events)).flatMap((i) => (i.kind === "tool" ? [[i.callId, i.status]] : []));
    const exit = { type: "tool.called", payload: { callId: "e1", tool: "exit_plan_mode", input: { plan: "# P" } } };
    const write = { type: "tool.called", payload: { callId: "w1", tool: "write", input: { path: "a" } } };
    const asked = {
      type: "permission.asked",
      payload: { requestId: "per_1", tool: "write", permission: "edit", patterns: ["a"], callId: "w1" },
    };
    const review = { type: "review.asked", payload: { reviewId: "rev_1", kind: "plan-review", toolCallId: "e1" } };
    expect(status([exit, review] as NewEvent[])).toEqual([["e1", "waiting"]]);
    expect(
      status([
        exit,
        review,
        { type: "tool.result", payload: { callId: "e1", tool: "exit_plan_mode", ok: false, error: "keep planning" } },
      ] as NewEvent[]),
    ).toEqual([["e1", "returned"]]);
    expect(status([write, asked] as NewEvent[])).toEqual([["w1", "waiting"]]);
    expect(
      status([
        write,
        asked,
        { type: "permission.replied", payload: { requestId: "per_1", reply: "once" } },
      ] as NewEvent[]),
    ).toEqual([["w1", "running"]]);
  });

  type Row = [string, NewEvent, { kind: string; text?: string; partial?: true; tokens?: string } | null];
  const rows: Row[] = [
    ["user message", { type: "message.user", payload: { text: "hi" } }, { kind: "user", text: "hi" }],
    ["system message hidden", { type: "message.user", payload: { text: "internal", source: "system" } }, null],
    ["blank assistant hidden", { type: "message.assistant", payload: { text: "  " } }, null],
    ["assistant", { type: "message.assistant", payload: { text: "**ok**" } }, { kind: "assistant", text: "**ok**" }],
    [
      "mode change",
      { type: "mode.changed", payload: { from: "default", to: "plan", prePlanMode: "default", cause: "command" } },
      { kind: "mode", text: "Mode: Ask before edits → Plan (by a command)" },
    ],
    [
      "queued mode",
      { type: "mode.queued", payload: { target: "plan", cause: "command" } },
      { kind: "mode", text: "Mode Plan at the next step" },
    ],
    [
      "queued cleared",
      { type: "mode.queued", payload: { target: null, cause: "command" } },
      { kind: "mode", text: "Queued mode change cancelled" },
    ],
    [
      "plan version",
      { type: "review.asked", payload: { reviewId: "r", kind: "plan-review", planVersion: 2 } },
      { kind: "plan", text: "Plan version 2 submitted for review" },
    ],
    [
      "approve",
      { type: "review.answered", payload: { reviewId: "r", decision: "approve" } },
      { kind: "decision", text: "Plan approved" },
    ],
    [
      "reject with feedback",
      { type: "review.answered", payload: { reviewId: "r", decision: "reject", feedback: "add tests" } },
      { kind: "decision", text: "Plan sent back: add tests" },
    ],
    [
      "permission asked",
      {
        type: "permission.asked",
        payload: { requestId: "p", tool: "bash", permission: "bash", patterns: ["npm test"] },
      },
      { kind: "permission", text: "Permission asked: bash npm test" },
    ],
    [
      "permission rejected",
      { type: "permission.replied", payload: { requestId: "p", reply: "reject", message: "no" } },
      { kind: "permission", text: "Rejected: no" },
    ],
    [
      "command",
      { type: "command.run", payload: { name: "plan", args: "off", outcome: "committed" } },
      { kind: "notice", text: "/plan off (committed)" },
    ],
    [
      "a notice without the log's ids",
      {
        type: "notice",
        payload: {
          level: "info",
          text: "Plan version 2 submitted to the team lead for approval (request rev_0m3k8q2a1x9y8z7w6v5u); waiting for the answer.",
        },
      },
      {
        kind: "notice",
        text: "Plan version 2 submitted to the team lead for approval; waiting for the answer.",
      },
    ],
    ["turn done hidden", { type: "turn.ended", payload: { turnId: "t", reason: "done" } }, null],
    [
      "turn aborted",
      { type: "turn.ended", payload: { turnId: "t", reason: "aborted" } },
      { kind: "turn", text: "Turn ended: aborted" },
    ],
    [
      "max steps",
      { type: "turn.ended", payload: { turnId: "t", reason: "max_steps" } },
      { kind: "turn", text: "Turn ended: max steps" },
    ],
    [
      "token limit",
      { type: "turn.ended", payload: { turnId: "t", reason: "max_tokens" } },
      { kind: "turn", text: "Turn ended: token limit reached" },
    ],
    [
      "turn error",
      { type: "turn.ended", payload: { turnId: "t", reason: "error" } },
      { kind: "turn", text: "Turn ended: error" },
    ],
    [
      "turn done with tokens",
      {
        type: "turn.ended",
        payload: { turnId: "t", reason: "done", usage: { input: 1234, output: 56, cacheRead: 900 } },
      },
      { kind: "turn", text: "Turn ended: done", tokens: "1,234 in / 56 out tokens (900 cached)" },
    ],
    [
      "turn done with zero tokens hidden",
      { type: "turn.ended", payload: { turnId: "t", reason: "done", usage: { input: 0, output: 0 } } },
      null,
    ],
    [
      "token limit with tokens",
      { type: "turn.ended", payload: { turnId: "t", reason: "max_tokens", usage: { input: 200000, output: 3000 } } },
      { kind: "turn", text: "Turn ended: token limit reached", tokens: "200,000 in / 3,000 out tokens" },
    ],
    ["abandoned hidden", { type: "turn.ended", payload: { turnId: "t", reason: "abandoned" } }, null],
    [
      "model retrying",
      {
        type: "model.retrying",
        payload: {
          turnId: "t",
          attempt: 2,
          of: 5,
          retryAt: "2026-01-01T00:00:04.000Z",
          reason: "503 Service Unavailable",
        },
      },
      { kind: "retry", text: "Retrying the model request (attempt 2 of 5): 503 Service Unavailable" },
    ],
    [
      "partial assistant",
      { type: "message.assistant", payload: { text: "Half a", partial: true } },
      { kind: "assistant", text: "Half a", partial: true },
    ],
    [
      "assistant with tokens",
      { type: "message.assistant", payload: { text: "ok", usage: { input: 10, output: 2 } } },
      { kind: "assistant", text: "ok", tokens: "10 in / 2 out tokens" },
    ],
    ["blank partial assistant hidden", { type: "message.assistant", payload: { text: "", partial: true } }, null],
    [
      "todos",
      {
        type: "todo.updated",
        payload: {
          todos: [
            { content: "a", status: "completed" },
            { content: "b", status: "pending" },
          ],
        },
      },
      { kind: "todo", text: "[x] a\n[ ] b" },
    ],
    ["turn started hidden", { type: "turn.started", payload: { turnId: "t" } }, null],
    [
      "verification",
      {
        type: "verification.completed",
        payload: {
          verificationId: "ver_1",
          planVersion: 1,
          status: "fail",
          method: "deterministic",
          summary: "Fail: 1/2 plan items done",
        },
      },
      { kind: "verification", text: "Fail: 1/2 plan items done" },
    ],
  ];
  it.each(rows)("%s", (_name, event, expected) => {
    const items = timelineItems(log([event]));
    if (expected === null) expect(items).toEqual([]);
    else {
      expect(items).toEqual([expect.objectContaining(expected)]);
      // Marks and tokens only where the event has them.
      expect("partial" in items[0]!).toBe("partial" in expected);
      expect("tokens" in items[0]!).toBe("tokens" in expected);
    }
  });
});

describe("team mail reads without its protocol", () => {
  it("names the sender and what it is, never request ids or send_message instructions", async () => {
    const { teamMailSummary } = await import("./timeline-items");
    const text = [
      "[Team mailbox]",
      "",
      'plan_approval_request from alice (requestId rev_123, version 2, file /w/.plangate/plans/x.md):\n# Plan\n\n1. a\nAnswer with send_message {to: "alice", type: "plan_approval_response", requestId: "rev_123", approve: true|false, feedback?}.',
      "",
      "message from bob: on it",
    ].join("\n");
    const summary = teamMailSummary(text);
    expect(summary).toBe(
      "Team mail: alice's plan (version 2) is waiting for approval in the team mailbox\nTeam mail from bob: on it",
    );
    expect(summary).not.toMatch(/requestId|rev_|send_message/);
  });
});
