import { describe, expect, it } from "vitest";
import type { NewEvent, SessionEvent } from "../session/log/events";
import { foldEvents } from "../session/log/fold";
import { emptyView, extendView, rebuildFrom, seedView, viewMessages } from "./conversation-view";
import { expectMatchesLog, randomLog, rng } from "../../tests/helpers/conversation-log-model";

describe("conversation view", () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])(
    "extended in random chunks, equals the whole log at every point (seed %i)",
    (seed) => {
      const events = randomLog(seed, 400);
      const r = rng(seed * 31);
      const view = emptyView();
      let at = 0;
      while (at < events.length) {
        const next = Math.min(events.length, at + 1 + Math.floor(r() * 12));
        extendView(view, events.slice(at, next));
        at = next;
        expectMatchesLog(view, events.slice(0, at));
        // Taking the messages leaves the view as it was: an open step may still grow.
        expect(viewMessages(view, "PLAN REF")).toEqual(viewMessages(view, "PLAN REF"));
      }
    },
  );

  it.each([21, 22, 23, 24, 25, 26])(
    "rebuilt from a state and the log from the last compaction, equals the whole log (seed %i)",
    (seed) => {
      const events = randomLog(seed, 600);
      for (let at = 50; at <= events.length; at += 37) {
        const prefix = events.slice(0, at);
        const state = foldEvents(prefix);
        const from = rebuildFrom(state);
        expect(from).not.toBeNull();
        const view = extendView(
          seedView(state),
          prefix.filter((e) => e.seq >= (from ?? 1)),
        );
        expectMatchesLog(view, prefix);
        // and it carries on like a view that saw everything
        extendView(view, events.slice(at, at + 40));
        expectMatchesLog(view, events.slice(0, at + 40));
      }
    },
  );

  it("ignores events it already holds (an overlapping read after a restart or a race)", () => {
    const events = randomLog(99, 200);
    const view = extendView(emptyView(), events.slice(0, 120));
    extendView(view, events.slice(100, 200));
    expectMatchesLog(view, events);
  });

  it.each<[string, NewEvent[], string]>([
    [
      "a message written while calls are open waits for their results",
      [
        { type: "message.assistant", payload: { text: "", mode: "default" } },
        { type: "tool.called", payload: { callId: "c1", tool: "read", input: {} } },
        { type: "message.user", payload: { text: "hurry" } },
        { type: "tool.result", payload: { callId: "c1", tool: "read", ok: true, output: "x" } },
      ],
      "assistant,tool,user",
    ],
    [
      "a message written while the step's request was in flight goes after that step's results",
      [
        { type: "message.user", payload: { text: "go" } },
        { type: "message.user", payload: { text: "/plan meanwhile" } },
        { type: "message.assistant", payload: { text: "", mode: "default", basis: 1 } },
        { type: "tool.called", payload: { callId: "c1", tool: "read", input: {} } },
        { type: "tool.result", payload: { callId: "c1", tool: "read", ok: true, output: "x" } },
      ],
      "user,assistant,tool,user",
    ],
    [
      "a log from before basis was recorded keeps its order",
      [
        { type: "message.user", payload: { text: "go" } },
        { type: "message.user", payload: { text: "meanwhile" } },
        { type: "message.assistant", payload: { text: "", mode: "default" } },
        { type: "tool.called", payload: { callId: "c1", tool: "read", input: {} } },
        { type: "tool.result", payload: { callId: "c1", tool: "read", ok: true, output: "x" } },
      ],
      "user,user,assistant,tool",
    ],
    [
      "a compaction replaces what came before with its summary and the plan",
      [
        { type: "message.user", payload: { text: "a" } },
        { type: "compaction", payload: { summary: "s", fromSeq: 1, toSeq: 1 } },
        { type: "message.user", payload: { text: "b" } },
      ],
      "user,user,user",
    ],
    [
      "a step with an open call keeps the call pending and its text",
      [
        { type: "message.assistant", payload: { text: "t", mode: "default" } },
        { type: "tool.called", payload: { callId: "c1", tool: "read", input: {} } },
      ],
      "assistant",
    ],
  ])("%s", (_name, log, roles) => {
    const events = log.map((e, i) => ({ ...e, seq: i + 1, at: "x" }) as SessionEvent);
    const view = emptyView();
    for (const e of events) extendView(view, [e]);
    expect(
      viewMessages(view, "PLAN REF")
        .messages.map((m) => m.role)
        .join(","),
    ).toBe(roles);
    expectMatchesLog(view, events);
  });
});
