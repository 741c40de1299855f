import { describe, expect, it } from "vitest";
import {
  DEFAULT_CHOICES,
  DEFAULT_NOTIFY,
  dueFollowUp,
  followUpsDone,
  applyNotifyChange,
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
    // A topic, never an address: the ntfy server is the operator's.
    expect(notifyChoicesSchema.safeParse({ email: true, ntfyTopic: "https://evil.test/x", events: [] }).success).toBe(
      false,
    );
    expect(notifyChoicesSchema.parse({ email: true, ntfyTopic: "ada-plans", events: [] }).ntfyTopic).toBe("ada-plans");
  });
  it.each([
    ["waiting", "email", DEFAULT_CHOICES, true],
    ["escalation", "email", { ...DEFAULT_CHOICES, slack: false, events: ["reminder" as const] }, true],
    ["escalation", "email", { ...DEFAULT_CHOICES, events: ["waiting" as const] }, false],
    ["decided", "email", { ...DEFAULT_CHOICES, email: false }, false],
    ["decided", "slack", { ...DEFAULT_CHOICES, email: false }, true],
    ["waiting", "slack", { ...DEFAULT_CHOICES, slack: false }, false],
    ["waiting", "push", { ...DEFAULT_CHOICES, push: false }, false],
    ["waiting", "ntfy", DEFAULT_CHOICES, false],
    ["waiting", "ntfy", { ...DEFAULT_CHOICES, ntfyTopic: "ada-plans" }, true],
  ] as const)("%s on %s with %j: %s", (kind, channel, choices, want) => {
    expect(wants(choices, channel, kind)).toBe(want);
  });
});

describe("applyNotifyChange", () => {
  const now = { remindAfterMinutes: 10, escalateAfterMinutes: 45, slackChannel: "C0PLANS" };
  it.each([
    ["a field left out stays as it is in force", { remindAfterMinutes: 5 }, { ...now, remindAfterMinutes: 5 }],
    ["null turns a step off", { escalateAfterMinutes: null }, { ...now, escalateAfterMinutes: null }],
    ["nothing named changes nothing", {}, now],
    ["the channel alone", { slackChannel: "dm" }, { ...now, slackChannel: "dm" }],
    [
      "an escalation before the reminder in force",
      { escalateAfterMinutes: 5 },
      "escalateAfterMinutes must be later than remindAfterMinutes",
    ],
  ])("%s", (_name, change, want) => {
    expect(applyNotifyChange(now, change)).toEqual(want);
  });
});

describe("followUpsDone", () => {
  it.each([
    [{}, [], false],
    [{}, ["reminder"], false],
    [{}, ["escalation"], true],
    [{ escalateAfterMinutes: null }, ["reminder"], true],
    [{ escalateAfterMinutes: null }, [], false],
    [{ escalateAfterMinutes: null, remindAfterMinutes: null }, [], true],
  ] as const)("%j with %j sent: %s", (policy, sent, done) => {
    expect(followUpsDone({ ...DEFAULT_NOTIFY, ...policy }, new Set(sent))).toBe(done);
  });
});
