import { describe, expect, it } from "vitest";
import { queueVerification } from "./queue-verification";

type Gate = { open: () => void; done: Promise<void> };
const gate = (): Gate => {
  let open = () => undefined as void;
  const done = new Promise<void>((r) => {
    open = r;
  });
  return { open, done };
};
const settle = () => new Promise((r) => setImmediate(r));

describe("queueVerification", () => {
  it("runs two at a time, in order, and a session waiting in the queue once", async () => {
    const gates = new Map<string, Gate>();
    const started: string[] = [];
    const verify = (id: string) => () => {
      started.push(id);
      const g = gate();
      gates.set(id, g);
      return g.done;
    };
    for (const id of ["a", "b", "c", "d"]) queueVerification(`q1-${id}`, verify(id));
    // A burst of turn ends for a session already waiting: verified once, not once per turn.
    queueVerification("q1-c", verify("c"));
    await settle();
    expect(started).toEqual(["a", "b"]);
    gates.get("a")?.open();
    await settle();
    expect(started).toEqual(["a", "b", "c"]);
    // Running, it may be queued again: a later turn's end is verified after this one.
    queueVerification("q1-c", verify("c"));
    gates.get("b")?.open();
    gates.get("c")?.open();
    await settle();
    expect(started).toEqual(["a", "b", "c", "d", "c"]);
    gates.get("d")?.open();
    gates.get("c")?.open();
  });

  it("a verification that throws frees its place", async () => {
    const started: string[] = [];
    const fail = (id: string) => async () => {
      started.push(id);
      throw new Error("verifier down");
    };
    const errors = console.error;
    console.error = () => undefined;
    try {
      for (const id of ["a", "b", "c"]) queueVerification(`q2-${id}`, fail(id));
      for (let i = 0; i < 5; i++) await settle();
      expect(started).toEqual(["a", "b", "c"]);
    } finally {
      console.error = errors;
    }
  });
});
