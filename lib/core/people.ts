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
  | { kind: "agent-token"; tokenId: string; userId: string }
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
      return act === "submit";
    case "person":
    case "reviewer-token": {
      const role = roleIn(actor.memberships, workspace);
      return role !== null && rank(role) >= rank(NEEDS[act]);
    }
  }
}

/** Whether `actor` may do `act` in some workspace: the coarse check a route makes before it knows which. */
export function mayAnywhere(actor: Actor, act: Act): boolean {
  switch (actor.kind) {
    case "operator":
      return true;
    case "agent-token":
      return act === "submit";
    case "person":
    case "reviewer-token":
      return actor.memberships.some((m) => rank(m.role) >= rank(NEEDS[act]));
  }
}

/** Who a recorded decision is signed by: the person and the credential, or what answered when no person did. */
export type Signer =
  | { by: "person"; userId: string; name: string; tokenId?: string }
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
  if (signer.by === "person") return signer.tokenId ? `token:${signer.tokenId}` : "session";
  return signer.by;
}
