import { describe, expect, it } from "vitest";
import {
  enterPlan,
  exitPlan,
  isModeAllowed,
  nextModeInCycle,
  resumeMode,
  setMode,
  type ModeChangeCause,
  type ModeGates,
  type PermissionMode as M,
} from "./modes";

const OPEN: ModeGates = { autoGateOpen: true, bypassEnabled: true };
const SHUT: ModeGates = { autoGateOpen: false, bypassEnabled: false };
const AUTO: ModeGates = { autoGateOpen: true, bypassEnabled: false };
const BYP: ModeGates = { autoGateOpen: false, bypassEnabled: true };

describe("isModeAllowed", () => {
  it.each<[M, ModeGates, boolean]>([
    ["default", SHUT, true],
    ["acceptEdits", SHUT, true],
    ["plan", SHUT, true],
    ["auto", SHUT, false],
    ["auto", AUTO, true],
    ["bypassPermissions", AUTO, false],
    ["bypassPermissions", BYP, true],
  ])("%s under %j → %s", (mode, gates, want) => {
    expect(isModeAllowed(mode, gates)).toBe(want);
  });
});

describe("enterPlan", () => {
  it.each<[M, boolean, M | null]>([
    ["default", true, "default"],
    ["acceptEdits", true, "acceptEdits"],
    ["auto", true, "auto"],
    ["bypassPermissions", true, "bypassPermissions"],
    ["plan", false, "acceptEdits"],
  ])("from %s: changed %s, prePlanMode %s", (mode, changed, pre) => {
    const state = { mode, prePlanMode: mode === "plan" ? ("acceptEdits" as M) : null };
    const t = enterPlan(state, "command");
    expect(t).toEqual({ changed, next: { mode: "plan", prePlanMode: pre }, cause: "command" });
  });
});

describe("exitPlan restores the pre-plan mode", () => {
  it.each<[M | null, ModeGates, M, ModeChangeCause]>([
    [null, SHUT, "default", "restore"],
    [null, OPEN, "default", "restore"],
    ["default", SHUT, "default", "restore"],
    ["default", OPEN, "default", "restore"],
    ["acceptEdits", SHUT, "acceptEdits", "restore"],
    ["acceptEdits", OPEN, "acceptEdits", "restore"],
    ["plan", OPEN, "default", "fallback"],
    ["plan", SHUT, "default", "fallback"],
    ["auto", OPEN, "auto", "restore"],
    ["auto", AUTO, "auto", "restore"],
    ["auto", BYP, "default", "fallback"],
    ["auto", SHUT, "default", "fallback"],
    ["bypassPermissions", OPEN, "bypassPermissions", "restore"],
    ["bypassPermissions", BYP, "bypassPermissions", "restore"],
    ["bypassPermissions", AUTO, "default", "fallback"],
    ["bypassPermissions", SHUT, "default", "fallback"],
  ])("prePlanMode %s under %j → %s (%s)", (pre, gates, mode, cause) => {
    expect(exitPlan({ mode: "plan", prePlanMode: pre }, gates)).toEqual({
      changed: true,
      next: { mode, prePlanMode: null },
      cause,
    });
  });

  it.each<[M, ModeGates, M, ModeChangeCause]>([
    ["default", SHUT, "default", "user"],
    ["acceptEdits", SHUT, "acceptEdits", "user"],
    ["plan", OPEN, "default", "fallback"],
    ["auto", AUTO, "auto", "user"],
    ["auto", SHUT, "default", "fallback"],
    ["bypassPermissions", BYP, "bypassPermissions", "user"],
    ["bypassPermissions", AUTO, "default", "fallback"],
  ])("requested %s under %j → %s (%s)", (requested, gates, mode, cause) => {
    const t = exitPlan({ mode: "plan", prePlanMode: "acceptEdits" }, gates, requested);
    expect(t).toEqual({ changed: true, next: { mode, prePlanMode: null }, cause });
  });

  it.each<M>(["default", "acceptEdits", "auto", "bypassPermissions"])("is a noop outside plan (%s)", (mode) => {
    const state = { mode, prePlanMode: null };
    const t = exitPlan(state, OPEN);
    expect(t.changed).toBe(false);
    expect(t.next).toBe(state);
  });
});

describe("setMode", () => {
  const MODES: M[] = ["default", "acceptEdits", "plan", "auto", "bypassPermissions"];
  // Leaving plan starts from prePlanMode "acceptEdits" so a restore would be visible.
  const from = (mode: M) => ({ mode, prePlanMode: mode === "plan" ? ("acceptEdits" as M) : null });
  const expected = (a: M, b: M): { changed: boolean; next: { mode: M; prePlanMode: M | null } } => {
    if (b === "plan")
      return { changed: a !== "plan", next: { mode: "plan", prePlanMode: a === "plan" ? "acceptEdits" : a } };
    return { changed: a !== b, next: { mode: b, prePlanMode: null } };
  };
  const pairs = MODES.flatMap((a) => MODES.map((b) => [a, b] as [M, M]));

  it.each(pairs)("%s → %s with all gates open", (a, b) => {
    const t = setMode(from(a), b, OPEN, "tool");
    expect(t).toEqual({ ok: true, ...expected(a, b), cause: "tool" });
  });

  it.each<[M, M, ModeGates]>([
    ["default", "auto", SHUT],
    ["default", "bypassPermissions", AUTO],
    ["plan", "auto", BYP],
    ["acceptEdits", "bypassPermissions", SHUT],
  ])("%s → %s is refused under %j", (a, b, gates) => {
    expect(setMode(from(a), b, gates, "user")).toEqual({ ok: false, error: "mode_not_allowed" });
  });
});

describe("resumeMode", () => {
  it.each<[M, M | null, ModeGates, M, M | null]>([
    ["default", null, SHUT, "default", null],
    ["acceptEdits", null, SHUT, "acceptEdits", null],
    ["bypassPermissions", null, OPEN, "default", null],
    ["auto", null, OPEN, "auto", null],
    ["auto", null, BYP, "default", null],
    ["plan", null, SHUT, "plan", null],
    ["plan", "acceptEdits", SHUT, "plan", "acceptEdits"],
    ["plan", "bypassPermissions", OPEN, "plan", "default"],
    ["plan", "auto", OPEN, "plan", "auto"],
    ["plan", "auto", SHUT, "plan", "default"],
    ["plan", "plan", OPEN, "plan", null],
    ["default", "auto", OPEN, "default", null],
  ])("%s (pre %s) under %j → %s (pre %s)", (mode, pre, gates, wantMode, wantPre) => {
    const t = resumeMode(mode, pre, gates, () => true);
    expect(t.next).toEqual({ mode: wantMode, prePlanMode: wantPre });
    expect(t.cause).toBe("resume");
    expect(t.changed).toBe(wantMode !== mode || wantPre !== pre);
  });
});

describe("resumeMode for a person who may not choose a mode that answers asks (a member)", () => {
  const member = (m: M) => m === "plan" || m === "default";
  it.each<[M, M | null, M, M | null]>([
    ["acceptEdits", null, "default", null],
    ["auto", null, "default", null],
    ["plan", "acceptEdits", "plan", "default"],
    ["plan", "auto", "plan", "default"],
    ["plan", "default", "plan", "default"],
    ["default", null, "default", null],
  ])("%s (pre %s) → %s (pre %s), with the carrier's cause", (mode, pre, wantMode, wantPre) => {
    const t = resumeMode(mode, pre, OPEN, member, "fork");
    expect(t.next).toEqual({ mode: wantMode, prePlanMode: wantPre });
    expect(t.cause).toBe("fork");
  });
});

describe("nextModeInCycle", () => {
  it.each<[M, ModeGates, M]>([
    ["default", SHUT, "acceptEdits"],
    ["acceptEdits", SHUT, "plan"],
    ["plan", SHUT, "default"],
    // auto and bypass are never reached by the cycle, even with their gates open.
    ["plan", AUTO, "default"],
    ["plan", BYP, "default"],
    ["plan", OPEN, "default"],
    ["auto", OPEN, "default"],
    ["auto", AUTO, "default"],
    ["bypassPermissions", OPEN, "default"],
    ["bypassPermissions", SHUT, "default"],
    ["default", OPEN, "acceptEdits"],
  ])("%s under %j → %s", (mode, _gates, want) => {
    expect(nextModeInCycle(mode)).toBe(want);
  });

  // What the person may choose (lib/auth/rules/mode-rights): a member's cycle skips acceptEdits.
  it.each<[M, readonly M[], M]>([
    ["default", ["default", "plan"], "plan"],
    ["plan", ["default", "plan"], "default"],
    ["acceptEdits", ["default", "plan"], "default"],
    ["default", ["default", "acceptEdits", "plan", "auto"], "acceptEdits"],
  ])("%s when %j may be chosen → %s", (mode, choosable, want) => {
    expect(nextModeInCycle(mode, choosable)).toBe(want);
  });
});
