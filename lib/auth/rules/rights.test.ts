import { describe, expect, it } from "vitest";
import {
  type Act,
  type Actor,
  covers,
  type Membership,
  may,
  mayAnswerMailbox,
  mayAnywhere,
  mayOnAgentSession,
  managesPerson,
  roleIn,
  signedBy,
  signerOf,
  starterOf,
} from "./rights";

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
const agent: Actor = {
  kind: "agent-token",
  tokenId: "t2",
  userId: "u1",
  memberships: [{ root: "/w", role: "member" }],
};
const viewersAgent: Actor = {
  kind: "agent-token",
  tokenId: "t3",
  userId: "u2",
  memberships: [{ root: "/w", role: "viewer" }],
};
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
    ["a reviewer token", bot, ["read", "decide", "answer"]],
    [
      "an owner's reviewer token",
      { ...bot, memberships: [{ root: "/w", role: "owner" }] },
      ["read", "decide", "answer"],
    ],
    ["an agent token", agent, ["submit"]],
    ["a viewer's agent token", viewersAgent, []],
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

describe("managesPerson: an owner of every root the person works in", () => {
  const twoTeams: Membership[] = [
    { root: "/w", role: "member" },
    { root: "/other", role: "viewer" },
  ];
  it.each([
    ["an owner of /w, a person only in /w/app", owner, [{ root: "/w/app", role: "member" }], true],
    ["an owner of /w, a person also in /other", owner, twoTeams, false],
    [
      "an owner of both",
      person([
        { root: "/w", role: "owner" },
        { root: "/other", role: "owner" },
      ]),
      twoTeams,
      true,
    ],
    ["an owner of /w, a person with no role", owner, [], false],
    ["an owner of /", person([{ root: "/", role: "owner" }]), [], true],
    ["a reviewer of /w", reviewer, [{ root: "/w/app", role: "member" }], false],
    ["an owner's reviewer token", { ...bot, memberships: [{ root: "/", role: "owner" }] }, [], false],
    ["an agent token", agent, [{ root: "/w", role: "viewer" }], false],
    ["the operator", operator, twoTeams, true],
  ] as [string, Actor, Membership[], boolean][])("%s: %s", (_, actor, target, out) =>
    expect(managesPerson(actor, target)).toBe(out),
  );
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

describe("mayOnAgentSession: an agent token reaches only the session it created", () => {
  const mine = { workspace: "/w/app", agentTokenId: "t2" };
  const theirs = { workspace: "/w/app", agentTokenId: "t9" };
  const unbound = { workspace: "/w/app", agentTokenId: null };
  const elsewhere = { workspace: "/other", agentTokenId: "t2" };
  it.each([
    ["its own session: submit", agent, "submit", mine, true],
    ["its own session: read the outcome", agent, "read", mine, true],
    ["another token's session", agent, "submit", theirs, false],
    ["another token's session: read", agent, "read", theirs, false],
    ["a session no token created (the operator's hook)", agent, "read", unbound, false],
    ["its own token, where its person lost the role", agent, "submit", elsewhere, false],
    ["a viewer's token on its own session", viewersAgent, "submit", { ...mine, agentTokenId: "t3" }, false],
    ["a member person submits to any session in the workspace", member, "submit", theirs, true],
    ["a viewer person reads it", viewer, "read", theirs, true],
    ["a viewer person cannot submit", viewer, "submit", theirs, false],
    ["the operator", operator, "submit", theirs, true],
  ] as const)("%s", (_, actor, act, session, out) => expect(mayOnAgentSession(actor, act, session)).toBe(out));
  it("an agent token may submit somewhere only when its person is a member somewhere", () => {
    expect(mayAnywhere(agent, "submit")).toBe(true);
    expect(mayAnywhere(viewersAgent, "submit")).toBe(false);
    expect(mayAnywhere(agent, "read")).toBe(false);
  });
});

describe("starterOf: who a new session is recorded as started by", () => {
  it.each([
    [reviewer, { startedBy: "u1", agentTokenId: null }],
    [bot, { startedBy: "u1", agentTokenId: null }],
    [agent, { startedBy: "u1", agentTokenId: "t2" }],
    [operator, { startedBy: null, agentTokenId: null }],
  ] as const)("%#", (actor, out) => expect(starterOf(actor)).toEqual(out));
});

describe("mayAnswerMailbox: only the lead's people answer a team's mailbox", () => {
  const lead = { workspace: "/w/app", startedBy: "u1" };
  const otherReviewer: Actor = {
    kind: "person",
    userId: "u7",
    name: "Other",
    memberships: [{ root: "/w", role: "reviewer" }],
  };
  const otherOwner: Actor = {
    kind: "person",
    userId: "u8",
    name: "Olga",
    memberships: [{ root: "/w", role: "owner" }],
  };
  it.each([
    ["the reviewer who started the lead session", reviewer, lead, true],
    ["their reviewer token", bot, lead, true],
    ["another reviewer", otherReviewer, lead, false],
    ["an owner of the workspace", otherOwner, lead, true],
    ["the starter, now only a member", member, lead, false],
    [
      "anyone who decides, when nobody is recorded (the operator started it)",
      otherReviewer,
      { ...lead, startedBy: null },
      true,
    ],
    ["an agent token", agent, lead, false],
    ["the operator", operator, lead, true],
    ["a reviewer an owner added as a lead person", otherReviewer, { ...lead, leads: ["u7"] }, true],
    ["a reviewer not among the added lead people", otherReviewer, { ...lead, leads: ["u9"] }, false],
    ["an added lead person who is only a member there", { ...member, userId: "u9" }, { ...lead, leads: ["u9"] }, false],
    [
      "nobody recorded, but lead people added: only they",
      otherReviewer,
      { ...lead, startedBy: null, leads: ["u9"] },
      false,
    ],
  ] as const)("%s", (_, actor, session, out) => expect(mayAnswerMailbox(actor, session)).toBe(out));
});
