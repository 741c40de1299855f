import { describe, expect, it } from "vitest";
import { tooManyMessage, waitWords } from "./rate-limit";

describe("waitWords", () => {
  it.each<[number, string]>([
    [0, "1 second"],
    [1, "1 second"],
    [41.2, "42 seconds"],
    [119, "119 seconds"],
    [120, "2 minutes"],
    [121, "3 minutes"],
    [300, "5 minutes"],
    [7199, "120 minutes"],
    [7200, "2 hours"],
    [86_400, "24 hours"],
  ])("%d s → %s", (seconds, words) => {
    expect(waitWords(seconds)).toBe(words);
  });

  it("says what was refused and when to try again", () => {
    expect(tooManyMessage("sign-in attempts", 42)).toBe("Too many sign-in attempts; try again in 42 seconds.");
  });
});
