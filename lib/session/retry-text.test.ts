import { describe, expect, it } from "vitest";
import type { PendingRetry } from "./log/fold";
import { countdownText, retryText } from "./retry-text";

describe("countdownText", () => {
  it.each([
    [1, "1 s"],
    [3200, "4 s"],
    [4000, "4 s"],
    [59_001, "1 min"],
    [60_000, "1 min"],
    [95_000, "1 min 35 s"],
  ])("%d ms → %s", (ms, want) => {
    expect(countdownText(ms)).toBe(want);
  });
});

describe("retryText", () => {
  const at = Date.parse("2026-01-01T00:00:10.000Z");
  const retry = (over: Partial<PendingRetry> = {}): PendingRetry => ({
    attempt: 2,
    of: 5,
    retryAt: "2026-01-01T00:00:14.000Z",
    reason: "503 Service Unavailable",
    ...over,
  });
  const cases: [string, PendingRetry, number, string][] = [
    [
      "counting down",
      retry(),
      at,
      "The model provider failed (503 Service Unavailable); retrying in 4 s (attempt 2 of 5)",
    ],
    [
      "part of a second rounds up",
      retry(),
      at + 3_500,
      "The model provider failed (503 Service Unavailable); retrying in 1 s (attempt 2 of 5)",
    ],
    [
      "at the time",
      retry(),
      at + 4_000,
      "The model provider failed (503 Service Unavailable); retrying now (attempt 2 of 5)",
    ],
    [
      "past the time",
      retry(),
      at + 60_000,
      "The model provider failed (503 Service Unavailable); retrying now (attempt 2 of 5)",
    ],
    [
      "a long wait",
      retry({ retryAt: "2026-01-01T00:01:50.000Z", attempt: 4, reason: "429 Too Many Requests" }),
      at,
      "The model provider failed (429 Too Many Requests); retrying in 1 min 40 s (attempt 4 of 5)",
    ],
    ["no reason", retry({ reason: " " }), at, "The model provider failed; retrying in 4 s (attempt 2 of 5)"],
    [
      "an unreadable time",
      retry({ retryAt: "soon" }),
      at,
      "The model provider failed (503 Service Unavailable); retrying now (attempt 2 of 5)",
    ],
  ];
  it.each(cases)("%s", (_name, r, now, want) => {
    expect(retryText(r, now)).toBe(want);
  });
});
