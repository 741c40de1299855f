import { describe, expect, it } from "vitest";
import { teammateStatus } from "./get-team";

type S = Parameters<typeof teammateStatus>[0];
const base: S = { mode: "acceptEdits", status: "idle", pendingReview: null };

describe("teammateStatus: what the lead's mailbox says a teammate is doing", () => {
  it.each<[string, Partial<S>, string]>([
    ["waiting on its plan", { pendingReview: { id: "r", kind: "plan-review" } }, "awaiting_approval"],
    ["waiting on a permission ask", { status: "awaiting_permission" }, "waiting_for_permission"],
    ["stopped", { status: "interrupted" }, "interrupted"],
    ["planning", { mode: "plan" }, "planning"],
    ["working", { status: "running" }, "executing"],
    ["finished and verified", { verification: "pass" }, "done"],
    ["finished, never verified", {}, "done"],
    ["finished, but its verification failed", { verification: "fail" }, "verification_failed"],
    // Issue 42: "changed, not checked" is not done.
    ["finished, its work changed but was not checked", { verification: "unverified" }, "unverified"],
  ])("%s → %s", (_name, state, status) => expect(teammateStatus({ ...base, ...state })).toBe(status));
});
