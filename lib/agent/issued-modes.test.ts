import { describe, expect, it } from "vitest";
import type { NewEvent, SessionEvent } from "../session/log/events";
import { issuedModes, startedUnfinished, stricter } from "./issued-modes";

const log = (events: NewEvent[]): SessionEvent[] =>
  events.map((e, i) => ({ ...e, seq: i + 1, at: "" }) as SessionEvent);
const step = (mode: "plan" | "default" | "acceptEdits"): NewEvent => ({
  type: "message.assistant",
  payload: { text: "", mode },
});
const called = (callId: string, tool = "write"): NewEvent => ({
  type: "tool.called",
  payload: { callId, tool, input: {} },
});

describe("issuedModes", () => {
  it("gives each call the mode of its step, and plan after enter_plan_mode in the same step", () => {
    const modes = issuedModes(
      log([
        step("default"),
        called("a"),
        called("b", "enter_plan_mode"),
        called("c"),
        step("plan"),
        called("d", "exit_plan_mode"),
        called("e"),
        step("acceptEdits"),
        called("f"),
      ]),
    );
    expect(Object.fromEntries(modes)).toEqual({
      a: "default",
      b: "default",
      c: "plan",
      d: "plan",
      e: "plan",
      f: "acceptEdits",
    });
  });
});

describe("stricter", () => {
  it.each([
    ["plan", "acceptEdits", "plan"],
    ["acceptEdits", "plan", "plan"],
    ["default", "acceptEdits", "default"],
    ["auto", "bypassPermissions", "auto"],
  ] as const)("%s vs %s → %s", (a, b, want) => {
    expect(stricter(a, b)).toBe(want);
  });
});

describe("startedUnfinished", () => {
  it("lists calls started without a result", () => {
    const events = log([
      called("a"),
      { type: "tool.started", payload: { callId: "a" } },
      called("b"),
      { type: "tool.started", payload: { callId: "b" } },
      { type: "tool.result", payload: { callId: "b", tool: "write", ok: true } },
    ]);
    expect([...startedUnfinished(events)]).toEqual(["a"]);
  });
});
