import { describe, expect, it } from "vitest";
import type { NewEvent, SessionEvent, Usage } from "./log/events";
import { exportFileName, localTime, markdownHeader, transcriptLines } from "./export-session";

describe("exports read in the reader's terms", () => {
  it.each([
    ["2026-11-30T23:51:49Z", "UTC", "2026-11-30 23:51:49 (UTC)"],
    ["2026-11-30T23:51:49Z", "Europe/Berlin", "2026-12-01 00:51:49 (Europe/Berlin)"],
    ["2026-07-01T12:00:00Z", "America/New_York", "2026-07-01 08:00:00 (America/New_York)"],
  ])("%s in %s → %s", (at, tz, want) => {
    expect(localTime(at, tz)).toBe(want);
  });

  it.each([
    ["Add pagination to the API", "add-pagination-to-the-api-2026-11-30.md"],
    ["Réglage: «chaos» / ../etc", "reglage-chaos-etc-2026-11-30.md"],
    ["!!!", "session-2026-11-30.md"],
  ])("%j → %s", (title, want) => {
    expect(exportFileName(title, "md", new Date("2026-11-30T10:00:00Z"))).toBe(want);
  });
});

describe("the Markdown export's header and transcript", () => {
  const session = {
    id: "ses_1",
    title: "Add pagination",
    workspace: "/w",
    agent: "build",
    model: "anthropic/claude",
    createdAt: "2026-11-30T10:00:00.000Z",
  };
  const base = [
    "# Add pagination",
    "",
    "- Session: ses_1",
    "- Workspace: /w",
    "- Agent: build, model: anthropic/claude",
    "- Created: 2026-11-30 10:00:00 (UTC); events: 7",
  ];
  it.each([
    ["no usage (offline, scripted)", null, base],
    ["zero usage says nothing", { input: 0, output: 0 }, base],
    ["usage", { input: 1234, output: 56 }, [...base, "- Tokens: 1,234 in / 56 out"]],
    [
      "usage with cache reads",
      { input: 1234, output: 56, cacheRead: 900 },
      [...base, "- Tokens: 1,234 in / 56 out (900 cached)"],
    ],
  ] as [string, Usage | null, string[]][])("%s", (_name, usage, want) => {
    expect(markdownHeader(session, 7, usage)).toEqual(want);
  });

  const log = (events: NewEvent[]): SessionEvent[] =>
    events.map((e, i) => ({ ...e, seq: i + 1, at: "2026-01-01T00:00:00.000Z" }) as SessionEvent);
  it.each([
    [
      "a message with its tokens",
      { type: "message.assistant", payload: { text: "Done.", usage: { input: 10, output: 2 } } },
      ["**Agent** (#1; 10 in / 2 out tokens):", "", "Done.", ""],
    ],
    [
      "a partial message",
      { type: "message.assistant", payload: { text: "Half", partial: true } },
      ["**Agent** (#1, partial — stopped):", "", "Half", ""],
    ],
    ["a plain message", { type: "message.assistant", payload: { text: "Hi" } }, ["**Agent** (#1):", "", "Hi", ""]],
    [
      "a retry",
      {
        type: "model.retrying",
        payload: {
          turnId: "t",
          attempt: 2,
          of: 5,
          retryAt: "2026-01-01T00:00:04.000Z",
          reason: "429 Too Many Requests",
        },
      },
      ["- #1 Retrying the model request (attempt 2 of 5): 429 Too Many Requests"],
    ],
    [
      "a turn's tokens",
      {
        type: "turn.ended",
        payload: { turnId: "t", reason: "done", usage: { input: 1234, output: 56, cacheRead: 900 } },
      },
      ["- #1 Turn ended: done · 1,234 in / 56 out tokens (900 cached)"],
    ],
    [
      "the token limit",
      { type: "turn.ended", payload: { turnId: "t", reason: "max_tokens" } },
      ["- #1 Turn ended: token limit reached"],
    ],
    ["a finished turn without tokens", { type: "turn.ended", payload: { turnId: "t", reason: "done" } }, []],
  ] as [string, NewEvent, string[]][])("%s", (_name, event, want) => {
    expect(transcriptLines(log([event]))).toEqual(want);
  });
});
