import { describe, expect, it } from "vitest";
import { emptyState, type SessionState } from "../session/log/fold";
import { chooseMode, type ModeChoice } from "./mode-choice";

const open = { autoGateOpen: true, bypassEnabled: false };
const closed = { autoGateOpen: false, bypassEnabled: false };
const st = (patch: Partial<SessionState>): SessionState => ({ ...emptyState, ...patch });
const idle = (mode: SessionState["mode"], prePlanMode: SessionState["mode"] | null = null) => st({ mode, prePlanMode });
const running = (
  mode: SessionState["mode"],
  queuedMode: SessionState["mode"] | null = null,
  prePlanMode: SessionState["mode"] | null = null,
) => st({ mode, prePlanMode, queuedMode, openTurnId: "t" });

describe("chooseMode (seed 004's set semantics)", () => {
  it.each<[string, SessionState, ModeChoice, typeof open, string, unknown]>([
    [
      "idle enter",
      idle("default"),
      { plan: true },
      open,
      "committed",
      { type: "mode.changed", payload: { from: "default", to: "plan", prePlanMode: "default" } },
    ],
    [
      "idle enter from acceptEdits keeps it as prePlanMode",
      idle("acceptEdits"),
      { plan: true },
      open,
      "committed",
      { payload: { prePlanMode: "acceptEdits" } },
    ],
    [
      "idle leave restores prePlanMode",
      idle("plan", "acceptEdits"),
      { plan: false },
      open,
      "committed",
      { payload: { to: "acceptEdits", prePlanMode: null } },
    ],
    [
      "idle leave to auto with the gate closed falls back",
      idle("plan", "auto"),
      { plan: false },
      closed,
      "committed",
      { payload: { to: "default", cause: "fallback" } },
    ],
    ["idle enter when already planning", idle("plan", "default"), { plan: true }, open, "noop", undefined],
    ["idle leave when not planning", idle("default"), { plan: false }, open, "noop", undefined],
    [
      "running enter queues",
      running("default"),
      { plan: true },
      open,
      "queued",
      { type: "mode.queued", payload: { target: "plan" } },
    ],
    [
      "running leave queues the restore target",
      running("plan", null, "acceptEdits"),
      { plan: false },
      open,
      "queued",
      { payload: { target: "acceptEdits" } },
    ],
    ["running: choosing the pending target again", running("default", "plan"), { plan: true }, open, "noop", undefined],
    [
      "running: opposite of the pending choice cancels it",
      running("default", "plan"),
      { plan: false },
      open,
      "cancelled",
      { type: "mode.queued", payload: { target: null } },
    ],
    ["running: same as current with nothing pending", running("plan"), { plan: true }, open, "noop", undefined],
    [
      "mode control: acceptEdits while idle",
      idle("default"),
      { mode: "acceptEdits" },
      open,
      "committed",
      { payload: { to: "acceptEdits" } },
    ],
    [
      "mode control: plan → default leaves plan",
      idle("plan", "auto"),
      { mode: "default" },
      open,
      "committed",
      { payload: { from: "plan", to: "default", prePlanMode: null } },
    ],
    [
      "mode control: auto while running queues",
      running("default"),
      { mode: "auto" },
      open,
      "queued",
      { payload: { target: "auto" } },
    ],
  ])("%s", (_name, state, choice, gates, outcome, event) => {
    const r = chooseMode(state, choice, gates, "command", () => true);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.outcome).toBe(outcome);
    if (event === undefined) expect(r.events).toEqual([]);
    else expect(r.events[0]).toMatchObject(event as object);
  });

  it.each<[string, ModeChoice, typeof open]>([
    ["auto with the gate closed", { mode: "auto" }, closed],
    ["bypass when not enabled", { mode: "bypassPermissions" }, open],
  ])("refuses %s", (_name, choice, gates) => {
    expect(chooseMode(idle("default"), choice, gates, "user", () => true)).toMatchObject({ ok: false });
  });

  // A member (issue 41): plan and default only. Leaving plan mode for a mode they may not choose goes to default.
  const member = (m: string) => m === "plan" || m === "default";
  it.each<[string, SessionState, ModeChoice, string, unknown]>([
    ["acceptEdits is refused", idle("default"), { mode: "acceptEdits" }, "forbidden", undefined],
    ["auto while running is refused, not queued", running("default"), { mode: "auto" }, "forbidden", undefined],
    [
      "/plan off back to acceptEdits → default",
      idle("plan", "acceptEdits"),
      { plan: false },
      "committed",
      { to: "default", prePlanMode: null },
    ],
    [
      "/plan off while running → default queued",
      { ...running("plan"), prePlanMode: "acceptEdits" },
      { plan: false },
      "queued",
      { target: "default" },
    ],
    ["/plan off in acceptEdits (not in plan) changes nothing", idle("acceptEdits"), { plan: false }, "noop", undefined],
    [
      "plan from acceptEdits",
      idle("acceptEdits"),
      { plan: true },
      "committed",
      { to: "plan", prePlanMode: "acceptEdits" },
    ],
  ])("a member: %s", (_name, state, choice, outcome, payload) => {
    const r = chooseMode(state, choice, open, "command", member);
    if (outcome === "forbidden") {
      expect(r).toMatchObject({ ok: false, code: "forbidden" });
      return;
    }
    expect(r).toMatchObject({ ok: true, outcome });
    if (r.ok && payload !== undefined) expect(r.events[0]?.payload).toMatchObject(payload as object);
  });
});
