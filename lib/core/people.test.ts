import { describe, expect, it } from "vitest";
import { type Act, type Actor, covers, type Membership, may, roleIn, signedBy, signerOf } from "./people";

const person = (memberships: Membership[]): Actor => ({
  kind: "person",
  userId: "u1",
  name: "Alice",
  memberships,
});
const viewer = person([{ root: "/w", role: "viewer" }]);
const member = person([{ root: "/w", role: "member" }]);
const reviewer = person([{ root: "/w", role: "reviewer" }]);
const owner = person([{ root: "/w", role: "owner" }]);
const nested = person([
  { root: "/w", role: "viewer" },
  { root: "/w/app", role: "reviewer" },
]);
const bot: Actor = {
  kind: "reviewer-token",
  tokenId: "t1",
  userId: "u1",
  name: "Alice",
  memberships: [{ root: "/w", role: "reviewer" }],
};
const agent: Actor = { kind: "agent-token", tokenId: "t2", userId: "u1" };
const operator: Actor = { kind: "operator" };

describe("covers", () => {
  it.each([
    ["/w", "/w", true],
    ["/w", "/w/app", true],
    ["/w/", "/w/app", true],
    ["/w", "/wx", false],
    ["/w", "/", false],
    ["/w/app", "/w", false],
    ["/", "/anything/at/all", true],
  ])("%s covers %s: %s", (root, ws, out) => expect(covers(root, ws)).toBe(out));
});

describe("roleIn: the highest covering role", () => {
  it.each([
    [nested, "/w", "viewer"],
    [nested, "/w/app/src", "reviewer"],
    [nested, "/other", null],
    [owner, "/w/x", "owner"],
  ] as const)("%#", (actor, ws, role) => {
    if (actor.kind !== "person") throw new Error("person rows only");
    expect(roleIn(actor.memberships, ws)).toBe(role);
  });
});

describe("may: every actor × act", () => {
  const acts: Act[] = ["read", "submit", "start", "chat", "decide", "answer", "manage"];
  // One row per actor: which acts it may do in /w/app.
  const table: [string, Actor, Act[]][] = [
    ["viewer", viewer, ["read"]],
    ["member", member, ["read", "submit", "start", "chat"]],
    ["reviewer", reviewer, ["read", "submit", "start", "chat", "decide", "answer"]],
    ["owner", owner, acts],
    ["a reviewer of a sub-folder", nested, ["read", "submit", "start", "chat", "decide", "answer"]],
    ["a reviewer token", bot, ["read", "submit", "start", "chat", "decide", "answer"]],
    ["an agent token", agent, ["submit"]],
    ["the operator", operator, acts],
    ["a person with no role here", person([{ root: "/elsewhere", role: "owner" }]), []],
  ];
  it.each(table)("%s", (_, actor, allowed) => {
    for (const act of acts) expect([act, may(actor, act, "/w/app")]).toEqual([act, allowed.includes(act)]);
  });
  it("a sub-folder's role gives nothing above it", () => {
    expect(may(nested, "decide", "/w")).toBe(false);
    expect(may(nested, "read", "/w")).toBe(true);
  });
});

describe("signer", () => {
  it.each([
    [reviewer, "Alice"],
    [bot, "Alice via token t1"],
    [operator, "operator"],
  ] as const)("%# signs as %s", (actor, text) => {
    const signer = signerOf(actor);
    expect(signer && signedBy(signer)).toBe(text);
  });
  it("an agent token signs nothing; the terminal and the lead's model read as themselves", () => {
    expect(signerOf(agent)).toBeNull();
    expect(signedBy({ by: "terminal" })).toBe("answered in the terminal");
    expect(signedBy({ by: "lead-model", sessionId: "s" })).toBe("the lead's model");
  });
});
