import { describe, expect, it } from "vitest";
import { PERMISSION_MODES, type PermissionMode } from "../../permission/modes";
import { answersAsks, carriedBy, choosableModes, mayChooseMode, modeRefusal } from "./mode-rights";
import type { Actor, Role } from "./rights";

const person = (role: Role, root = "/w"): Actor => ({
  kind: "person",
  userId: "u1",
  name: "Ada",
  memberships: [{ root, role }],
});
const reviewerToken: Actor = {
  kind: "reviewer-token",
  tokenId: "t1",
  userId: "u1",
  name: "Ada",
  memberships: [{ root: "/w", role: "reviewer" }],
};
const membersToken: Actor = { ...reviewerToken, memberships: [{ root: "/w", role: "member" }] };
const agentToken: Actor = {
  kind: "agent-token",
  tokenId: "t2",
  userId: "u1",
  memberships: [{ root: "/w", role: "owner" }],
};
const operator: Actor = { kind: "operator" };

// Who may choose which mode in /w/app: one row per actor, the modes they may choose.
const TABLE: [string, Actor, PermissionMode[]][] = [
  ["a viewer", person("viewer"), []],
  ["a member", person("member"), ["default", "plan"]],
  ["a reviewer", person("reviewer"), [...PERMISSION_MODES]],
  ["an owner", person("owner"), [...PERMISSION_MODES]],
  ["a reviewer of another root", person("reviewer", "/other"), []],
  ["a reviewer's token (for its person)", reviewerToken, [...PERMISSION_MODES]],
  ["a member's reviewer token (decides nothing, chats nothing)", membersToken, []],
  ["an agent token, even an owner's", agentToken, []],
  ["the operator", operator, [...PERMISSION_MODES]],
];

describe("mayChooseMode", () => {
  it.each(TABLE)("%s", (_who, actor, modes) => {
    expect(PERMISSION_MODES.filter((m) => mayChooseMode(actor, m, "/w/app"))).toEqual(modes);
  });

  it("the modes that answer asks are exactly acceptEdits, auto and bypassPermissions", () => {
    expect(PERMISSION_MODES.filter(answersAsks)).toEqual(["acceptEdits", "auto", "bypassPermissions"]);
  });
});

describe("choosableModes", () => {
  it.each([
    [{ autoGateOpen: true, bypassEnabled: true }, [...PERMISSION_MODES]],
    [{ autoGateOpen: false, bypassEnabled: false }, ["default", "acceptEdits", "plan"]],
  ])("a reviewer is offered what the server allows (%o)", (gates, modes) => {
    expect(choosableModes(person("reviewer"), "/w", gates)).toEqual(modes);
  });

  it("a member is offered plan and default only, whatever the server allows", () => {
    expect(choosableModes(person("member"), "/w", { autoGateOpen: true, bypassEnabled: true })).toEqual([
      "default",
      "plan",
    ]);
  });
});

describe("carriedBy (a fork, a resume, an import)", () => {
  it.each([
    ["member", "acceptEdits", false],
    ["member", "auto", false],
    ["member", "bypassPermissions", false],
    ["member", "plan", true],
    ["member", "default", true],
    ["viewer", "plan", true],
    ["reviewer", "acceptEdits", true],
    ["reviewer", "auto", true],
  ] as const)("a %s carries %s: %s", (role, mode, kept) => {
    expect(carriedBy(person(role), "/w")(mode)).toBe(kept);
  });
});

describe("modeRefusal", () => {
  it("says what the mode does and who may choose it", () => {
    expect(modeRefusal("auto", "/w")).toMatch(
      /auto needs the right to decide in \/w \(reviewer or above\).*plan and default/,
    );
  });
});
