import { describe, expect, it } from "vitest";
import {
  DEFAULT_CHOICES,
  DEFAULT_NOTIFY,
  dueFollowUp,
  notifyChoicesSchema,
  notifyPolicyOf,
  notifyPolicySchema,
  wants,
} from "./notify-policy";

const at = new Date("2026-12-07T10:00:00Z");
const after = (minutes: number) => new Date(at.getTime() + minutes * 60_000);

describe("dueFollowUp", () => {
  const cases: [string, number, Partial<typeof DEFAULT_NOTIFY>, ("reminder" | "escalation")[], string | null][] = [
    ["nothing before the reminder's delay", 14, {}, [], null],
    ["the reminder once its delay passed", 15, {}, [], "reminder"],
    ["nothing more once reminded, before the escalation", 59, {}, ["reminder"], null],
    ["the escalation after its delay", 60, {}, ["reminder"], "escalation"],
    ["the escalation even if the reminder never went (the server was down)", 90, {}, [], "escalation"],
    ["nothing once escalated", 600, {}, ["reminder", "escalation"], null],
    ["no reminder when the policy turns it off", 30, { remindAfterMinutes: null }, [], null],
    ["no escalation when the policy turns it off", 600, { escalateAfterMinutes: null }, ["reminder"], null],
    ["a workspace's own delay", 5, { remindAfterMinutes: 5 }, [], "reminder"],
  ];
  it.each(cases)("%s", (_name, minutes, policy, sent, want) => {
    expect(
      dueFollowUp({ askedAt: at, now: after(minutes), policy: { ...DEFAULT_NOTIFY, ...policy }, sent: new Set(sent) }),
    ).toBe(want);
  });
});

describe("the notify policy's schema", () => {
  it("fills the defaults and keeps what is given", () => {
    expect(notifyPolicySchema.parse({})).toEqual(DEFAULT_NOTIFY);
    expect(notifyPolicySchema.parse({ remindAfterMinutes: 5, escalateAfterMinutes: null })).toEqual({
      remindAfterMinutes: 5,
      escalateAfterMinutes: null,
      slackChannel: null,
    });
    expect(notifyPolicySchema.parse({ slackChannel: "C0123ABC" }).slackChannel).toBe("C0123ABC");
    expect(notifyPolicySchema.parse({ slackChannel: "dm" }).slackChannel).toBe("dm");
  });
  it.each([
    [{ remindAfterMinutes: 0 }, /at least 1 minute/],
    [{ remindAfterMinutes: 30, escalateAfterMinutes: 20 }, /later than remindAfterMinutes/],
    [{ remindAfterMinutes: 1.5 }, /integer|int/i],
    [{ slackChannel: "#general" }, /a Slack channel id/],
    [{ channel: "C0123" }, /Unrecognized|channel/],
  ])("refuses %j, naming the problem", (body, message) => {
    const r = notifyPolicySchema.safeParse(body);
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toMatch(message);
  });
  it("reads a damaged stored value as the defaults", () => {
    expect(notifyPolicyOf("{not json")).toEqual(DEFAULT_NOTIFY);
    expect(notifyPolicyOf('{"remindAfterMinutes":-3}')).toEqual(DEFAULT_NOTIFY);
    expect(notifyPolicyOf('{"remindAfterMinutes":7}')).toEqual({ ...DEFAULT_NOTIFY, remindAfterMinutes: 7 });
  });
});

describe("a person's choices", () => {
  it("keeps the events in one order, drops repeats, refuses unknown ones", () => {
    expect(notifyChoicesSchema.parse({ email: true, events: ["decided", "waiting", "waiting"] })).toEqual({
      email: true,
      events: ["waiting", "decided"],
    });
    expect(notifyChoicesSchema.parse({ email: false, slack: true, events: [] })).toEqual({
      email: false,
      slack: true,
      events: [],
    });
    expect(notifyChoicesSchema.safeParse({ email: true, events: ["everything"] }).success).toBe(false);
  });
  it.each([
    ["waiting", "email", DEFAULT_CHOICES, true],
    ["escalation", "email", { email: true, slack: false, events: ["reminder" as const] }, true],
    ["escalation", "email", { email: true, slack: true, events: ["waiting" as const] }, false],
    ["decided", "email", { email: false, slack: true, events: DEFAULT_CHOICES.events }, false],
    ["decided", "slack", { email: false, slack: true, events: DEFAULT_CHOICES.events }, true],
    ["waiting", "slack", { email: true, slack: false, events: DEFAULT_CHOICES.events }, false],
  ] as const)("%s on %s with %j: %s", (kind, channel, choices, want) => {
    expect(wants(choices, channel, kind)).toBe(want);
  });
});
