import { describe, expect, it } from "vitest";
import type { NewEvent, SessionEvent } from "../session/log/events";
import { foldEvents } from "../session/log/fold";
import { modeSwitchNotice, planModeSection } from "./plan-prompt";

const log = (...events: NewEvent[]): SessionEvent[] =>
  events.map((e, i) => ({ ...e, seq: i + 1, at: "" }) as SessionEvent);
const created: NewEvent = {
  type: "session.created",
  payload: { title: "t", workspace: "/w", agent: "build", model: "m", mode: "default" },
};
const plan: NewEvent = { type: "plan.created", payload: { planId: "p", slug: "s", path: "/w/.plangate/plans/s.md" } };
const toPlan = (cause: "user" | "command" | "tool"): NewEvent => ({
  type: "mode.changed",
  payload: { from: "default", to: "plan", prePlanMode: "default", cause },
});
const fromPlan = (cause: "user" | "command" | "review"): NewEvent => ({
  type: "mode.changed",
  payload: { from: "plan", to: "default", prePlanMode: null, cause },
});
const asked = (mode: "default" | "plan"): NewEvent => ({ type: "message.assistant", payload: { text: "", mode } });

describe("modeSwitchNotice", () => {
  it.each<[string, NewEvent[], RegExp | null]>([
    [
      "user turned plan on after a request in default",
      [created, asked("default"), plan, toPlan("command")],
      /turned plan mode on/,
    ],
    [
      "user turned plan off after a request in plan",
      [created, plan, toPlan("tool"), asked("plan"), fromPlan("user")],
      /turned plan mode off/,
    ],
    ["no request yet: nothing to correct", [created, plan, toPlan("command")], null],
    ["the model's own tool switched: it knows", [created, asked("default"), plan, toPlan("tool")], null],
    [
      "a review switched: the tool result said so",
      [created, plan, toPlan("tool"), asked("plan"), fromPlan("review")],
      null,
    ],
    [
      "already announced: the last request described the new state",
      [created, asked("default"), plan, toPlan("user"), asked("plan")],
      null,
    ],
    [
      "switched and back before the next request",
      [created, asked("default"), plan, toPlan("user"), fromPlan("user")],
      null,
    ],
  ])("%s", (_name, events, expected) => {
    const l = log(...events);
    const notice = modeSwitchNotice(foldEvents(l));
    if (expected === null) expect(notice).toBeNull();
    else expect(notice).toMatch(expected);
  });
});

describe("planModeSection", () => {
  it("is absent outside plan mode, full on entry, short every third request, a line otherwise", () => {
    const base = [created, plan, toPlan("tool")];
    const section = (n: number) => {
      const l = log(...base, ...Array.from({ length: n }, () => asked("plan")));
      return planModeSection(foldEvents(l));
    };
    expect(planModeSection(foldEvents(log(created)))).toBeNull();
    expect(section(0)).toMatch(/^PLAN MODE ACTIVE\.[\s\S]*Plan file: \/w\/.plangate\/plans\/s.md/);
    expect(section(1)).toBe("Plan mode is on (plan file: /w/.plangate/plans/s.md).");
    expect(section(3)).toMatch(/^PLAN MODE ACTIVE: change nothing but the plan file/);
    expect(section(4)).toMatch(/^Plan mode is on/);
  });
});
