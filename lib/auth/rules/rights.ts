/**
 * Who is acting and what they may do (issue 26): pure, so every route, tool and hook asks the same function.
 * A person's rights come from their roles per workspace root; the operator (PLANGATE_TOKEN) has an owner's; an
 * `agent` token (what `plangate connect` saves for an outside agent) may only submit its own plans and asks.
 */

/** Each role has the rights of those before it. */
export const ROLES = ["viewer", "member", "reviewer", "owner"] as const;
export type Role = (typeof ROLES)[number];

/**
 * What an actor may try: read (sessions, History, exports), submit (a plan or an ask, and wait for it), start
 * (sessions) and chat, decide (plans) and answer (asks, questions), manage (people, tokens, policies, trust).
 */
export type Act = "read" | "submit" | "start" | "chat" | "decide" | "answer" | "manage";

const NEEDS: Record<Act, Role> = {
  read: "viewer",
  submit: "member",
  start: "member",
  chat: "member",
  decide: "reviewer",
  answer: "reviewer",
  manage: "owner",
};

/** What a scoped token may do: `agent` submits its own plans and asks only; `reviewer` answers for its person. */
export const TOKEN_SCOPES = ["agent", "reviewer"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** A role over a workspace root: it covers the root and every folder under it. */
export type Membership = { root: string; role: Role };

export type Actor =
  | { kind: "person"; userId: string; name: string; memberships: readonly Membership[] }
  /** A `reviewer` token answers on its person's behalf, with at most that person's rights. */
  | { kind: "reviewer-token"; tokenId: string; userId: string; name: string; memberships: readonly Membership[] }
  /** An `agent` token submits for its person: only where that person may (member or above), never more. */
  | { kind: "agent-token"; tokenId: string; userId: string; memberships: readonly Membership[] }
  | { kind: "operator" };

const rank = (role: Role) => ROLES.indexOf(role);

/** Whether `root` is `workspace` or one of its parents, compared as absolute paths (no trailing slash). */
export function covers(root: string, workspace: string): boolean {
  const r = root.length > 1 ? root.replace(/\/+$/, "") : root;
  if (r === "/") return workspace.startsWith("/");
  return workspace === r || workspace.startsWith(`${r}/`);
}

/** The highest role any of these memberships gives in `workspace`, or null when none covers it. */
export function roleIn(memberships: readonly Membership[], workspace: string): Role | null {
  let best: Role | null = null;
  for (const m of memberships)
    if (covers(m.root, workspace) && (best === null || rank(m.role) > rank(best))) best = m.role;
  return best;
}

/**
 * Whether `actor` may do `act` in `workspace`. An agent token submits only, and never decides or answers:
 * it is held by an unsandboxed process that could otherwise approve its own plan.
 */
export function may(actor: Actor, act: Act, workspace: string): boolean {
  switch (actor.kind) {
    case "operator":
      return true;
    case "agent-token":
      return act === "submit" && holds(actor.memberships, workspace, "submit");
    case "reviewer-token":
      return REVIEWER_TOKEN_ACTS.includes(act) && holds(actor.memberships, workspace, act);
    case "person":
      return holds(actor.memberships, workspace, act);
  }
}

/**
 * A `reviewer` token reads and answers for its person, up to their role, and nothing else: a bot holding an
 * owner's token still cannot start sessions, manage people, trust a config or make more tokens.
 */
const REVIEWER_TOKEN_ACTS: readonly Act[] = ["read", "decide", "answer"];

/**
 * Whether `actor` manages the person with these roles (revokes their tokens, deactivates them): the operator, or
 * an owner of every root the person has a role over (of / for someone with none). An owner of one team's folder
 * cannot act on a person another team relies on.
 */
export function managesPerson(actor: Actor, person: readonly Membership[]): boolean {
  const roots = person.length ? person.map((m) => m.root) : ["/"];
  return actor.kind !== "reviewer-token" && roots.every((root) => may(actor, "manage", root));
}

function holds(memberships: readonly Membership[], workspace: string, act: Act): boolean {
  const role = roleIn(memberships, workspace);
  return role !== null && rank(role) >= rank(NEEDS[act]);
}

/** Whether `actor` may do `act` in some workspace: the coarse check a route makes before it knows which. */
export function mayAnywhere(actor: Actor, act: Act): boolean {
  switch (actor.kind) {
    case "operator":
      return true;
    case "agent-token":
      return act === "submit" && actor.memberships.some((m) => rank(m.role) >= rank(NEEDS.submit));
    case "reviewer-token":
      return REVIEWER_TOKEN_ACTS.includes(act) && actor.memberships.some((m) => rank(m.role) >= rank(NEEDS[act]));
    case "person":
      return actor.memberships.some((m) => rank(m.role) >= rank(NEEDS[act]));
  }
}

/**
 * The workspace roots whose sessions `actor` may read (every role reads), or null for all of them: what every
 * list, search, stream, export and log is narrowed to. Roots come without a trailing slash, none inside another.
 */
export function readableRoots(actor: Actor): readonly string[] | null {
  if (actor.kind === "operator") return null;
  if (actor.kind === "agent-token") return [];
  const roots = [...new Set(actor.memberships.map((m) => (m.root.length > 1 ? m.root.replace(/\/+$/, "") : m.root)))];
  if (roots.includes("/")) return null;
  return roots.filter((r) => !roots.some((o) => o !== r && covers(o, r))).sort();
}

/**
 * The roots `actor` owns (manages people, tokens and trust in), or null for all of them: what the People and
 * Audit pages are narrowed to. Agent tokens and reviewer tokens manage nothing.
 */
export function manageableRoots(actor: Actor): readonly string[] | null {
  if (actor.kind === "operator") return null;
  if (actor.kind !== "person") return [];
  return readableRoots({ ...actor, memberships: actor.memberships.filter((m) => m.role === "owner") });
}

/** readableRoots() as a list filter: `{ roots }`, or nothing when the actor reads every workspace. */
export function readableFilter(actor: Actor): { roots?: readonly string[] } {
  const roots = readableRoots(actor);
  return roots === null ? {} : { roots };
}

/**
 * Whether `actor` may answer a team's mailbox (approve or send back a teammate's plan): a reviewer there who is
 * one of the lead's people (the person who started the lead session, or one an owner added), or an owner of its
 * workspace. With nobody recorded as starting it (the operator did), any reviewer there.
 */
export function mayAnswerMailbox(
  actor: Actor,
  lead: { workspace: string; startedBy: string | null; leads?: readonly string[] },
): boolean {
  return may(actor, "decide", lead.workspace) && leadsTeam(actor, lead);
}

/**
 * Whether `actor` may add a teammate to a team (issue 41): one who may start sessions there and leads the team as
 * for its mailbox (the lead's people, or an owner). The teammate is then theirs: started by them.
 */
export function mayAddTeammate(
  actor: Actor,
  lead: { workspace: string; startedBy: string | null; leads?: readonly string[] },
): boolean {
  return may(actor, "start", lead.workspace) && leadsTeam(actor, lead);
}

function leadsTeam(actor: Actor, lead: { workspace: string; startedBy: string | null; leads?: readonly string[] }) {
  if (actor.kind === "operator" || may(actor, "manage", lead.workspace)) return true;
  if (actor.kind !== "person" && actor.kind !== "reviewer-token") return false;
  if (lead.leads?.includes(actor.userId)) return true;
  return lead.startedBy === null ? !lead.leads?.length : actor.userId === lead.startedBy;
}

/** Who a new session is recorded as started by, from the actor that created it (the operator is nobody). */
export type Starter = { startedBy: string | null; agentTokenId: string | null };

export function starterOf(actor: Actor): Starter {
  switch (actor.kind) {
    case "operator":
      return { startedBy: null, agentTokenId: null };
    case "agent-token":
      return { startedBy: actor.userId, agentTokenId: actor.tokenId };
    case "person":
    case "reviewer-token":
      return { startedBy: actor.userId, agentTokenId: null };
  }
}

/** What an outside agent's session is judged by: its workspace and the agent token it is bound to, if any. */
export type AgentSessionOwner = { workspace: string; agentTokenId: string | null };

/**
 * Whether `actor` may `act` on an outside agent's session. An agent token reaches only the session it created
 * (submit to it, read its outcomes), so one agent cannot supersede, wait on or close another's review; every
 * other actor is judged by its role in the session's workspace.
 */
export function mayOnAgentSession(actor: Actor, act: "submit" | "read", session: AgentSessionOwner): boolean {
  if (actor.kind !== "agent-token") return may(actor, act, session.workspace);
  return session.agentTokenId === actor.tokenId && holds(actor.memberships, session.workspace, "submit");
}

/** Who a recorded decision is signed by: the person and the credential, or what answered when no person did. */
export type Signer =
  /** `slackUser`: the decision came from a Slack button of a Slack user ("team:user") linked to this person. */
  | { by: "person"; userId: string; name: string; tokenId?: string; slackUser?: string }
  | { by: "operator" }
  | { by: "terminal" }
  | { by: "lead-model"; sessionId: string };

/** The signer of an act by `actor` (an agent token signs nothing: it may not decide). */
export function signerOf(actor: Actor): Signer | null {
  switch (actor.kind) {
    case "person":
      return { by: "person", userId: actor.userId, name: actor.name };
    case "reviewer-token":
      return { by: "person", userId: actor.userId, name: actor.name, tokenId: actor.tokenId };
    case "operator":
      return { by: "operator" };
    case "agent-token":
      return null;
  }
}

/** How a signer reads on the timeline, in History and in exports. */
export function signedBy(signer: Signer): string {
  switch (signer.by) {
    case "person":
      if (signer.slackUser) return `${signer.name} via Slack`;
      return signer.tokenId ? `${signer.name} via token ${signer.tokenId}` : signer.name;
    case "operator":
      return "operator";
    case "terminal":
      return "answered in the terminal";
    case "lead-model":
      return "the lead's model";
  }
}

/** The credential column of a signed row: how the signer acted (the name is kept beside it). */
export function credentialOf(signer: Signer): string {
  if (signer.by === "person") {
    if (signer.slackUser) return `slack:${signer.slackUser}`;
    return signer.tokenId ? `token:${signer.tokenId}` : "session";
  }
  return signer.by;
}

/** The roles among a joined lookup's rows (a LEFT JOIN of Membership: a person with none has one null row). */
export function rolesInRows(rows: readonly { root: string | null; role: string | null }[]): Membership[] {
  return rows.flatMap((r) => (r.root === null || r.role === null ? [] : [{ root: r.root, role: r.role as Role }]));
}
