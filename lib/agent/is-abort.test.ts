import { describe, expect, it } from "vitest";
import { isAbort } from "./is-abort";

const aborted = () => {
  const c = new AbortController();
  c.abort();
  return c.signal;
};
const live = () => new AbortController().signal;
const pgAborted = Object.assign(
  new Error("current transaction is aborted, commands ignored until end of transaction block"),
  { code: "25P02" },
);
const named = (name: string, message = "x") => Object.assign(new Error(message), { name });

describe("isAbort", () => {
  it.each<[string, unknown, AbortSignal | undefined, boolean]>([
    ["PostgreSQL's aborted transaction, no signal", pgAborted, undefined, false],
    ["PostgreSQL's aborted transaction, the turn still running", pgAborted, live(), false],
    ["a message that mentions an abort", new Error("The upload was aborted by the server"), live(), false],
    ["a thrown string", "aborted", undefined, false],
    ["an object named AbortError that is not an error", { name: "AbortError" }, undefined, false],
    ["a TimeoutError (a deadline, not the turn's abort)", new DOMException("timed out", "TimeoutError"), live(), false],
    ["a DOMException AbortError", new DOMException("This operation was aborted", "AbortError"), undefined, true],
    [
      "an Error named AbortError",
      named("AbortError", "The request was aborted while the answer streamed."),
      live(),
      true,
    ],
    ["the aborted signal's own reason", aborted().reason, undefined, true],
    ["any error once the turn's signal fired", pgAborted, aborted(), true],
    ["an unrelated error once the turn's signal fired", new TypeError("fetch failed"), aborted(), true],
    ["an unrelated error, the turn still running", new TypeError("fetch failed"), live(), false],
  ])("%s → %s", (_name, error, signal, want) => {
    expect(isAbort(error, signal)).toBe(want);
  });
});
