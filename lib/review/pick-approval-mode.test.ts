import { describe, expect, it } from "vitest";
import type { ModeGates, PermissionMode } from "../permission";
import { modeEvents } from "./close-decision";
import { type ApproverKind, approvalChoices, approvalMode } from "./pick-approval-mode";

// Issue 42: one mode after approval. The card's default Approve and the server's approval without a mode give the
// same mode, for every mode before plan mode, gate and approver (they disagreed for bypassPermissions).
const PRE: (PermissionMode | null)[] = [null, "default", "acceptEdits", "auto", "bypassPermissions"];
const GATES: ModeGates[] = [
  { autoGateOpen: false, bypassEnabled: false },
  { autoGateOpen: true, bypassEnabled: false },
  { autoGateOpen: false, bypassEnabled: true },
  { autoGateOpen: true, bypassEnabled: true },
];
const APPROVERS: ApproverKind[] = [
  { by: "person" },
  { by: "lead-person" },
  { by: "lead-model", mode: "acceptEdits", starterMay: true },
  { by: "lead-model", mode: "acceptEdits", starterMay: false },
  { by: "lead-model", mode: "default", starterMay: true },
];

const expected = (pre: PermissionMode | null, gates: ModeGates, approver: ApproverKind): PermissionMode => {
  if (approver.by === "lead-person") return "acceptEdits";
  if (approver.by === "lead-model")
    return approver.mode === "default" || !approver.starterMay ? "default" : "acceptEdits";
  if (pre === "acceptEdits" || pre === "bypassPermissions") return "acceptEdits";
  return pre === "auto" && gates.autoGateOpen ? "auto" : "default";
};

const table = PRE.flatMap((pre) => GATES.flatMap((gates) => APPROVERS.map((approver) => ({ pre, gates, approver }))));

describe("the mode after approval", () => {
  it.each(table)("pre $pre, gates $gates, $approver.by: card and server agree", ({ pre, gates, approver }) => {
    const card = approvalChoices({ prePlanMode: pre, gates, approver }).fallback;
    const server = approvalMode({ prePlanMode: pre, gates, approver });
    const want = expected(pre, gates, approver);
    expect(card).toBe(want);
    expect(server).toBe(want);
    // The event the server logs goes where the card said, never to bypassPermissions.
    const logged = modeEvents({ state: { mode: "plan", prePlanMode: pre, openTurnId: null }, gates }, server);
    expect(logged.mode).toBe(want);
    expect(logged.events).toHaveLength(1);
    expect(logged.mode).not.toBe("bypassPermissions");
  });

  it("a person's pick is kept when the card offers it; a teammate's auto pick becomes acceptEdits", () => {
    const gates = { autoGateOpen: true, bypassEnabled: false };
    expect(approvalMode({ prePlanMode: "default", gates, approver: { by: "person" }, requested: "auto" })).toBe("auto");
    expect(approvalMode({ prePlanMode: "default", gates, approver: { by: "lead-person" }, requested: "auto" })).toBe(
      "acceptEdits",
    );
    // A model picks nothing: its approval gives only what its lead's people may choose.
    const model = { by: "lead-model", mode: "default", starterMay: true } as const;
    expect(approvalMode({ prePlanMode: "auto", gates, approver: model, requested: "acceptEdits" })).toBe("default");
  });
});
