/** Whom a grant answers for: Plangate's own sandboxed agent, or outside agents (which run on the host, unsandboxed). */
export type GrantActor = "agent" | "outside";

/** A saved "always" reply: allow this permission for this pattern, in one session or a whole workspace. */
export type GrantView = {
  id: string;
  scope: "session" | "workspace";
  sessionId: string | null;
  workspace: string | null;
  permission: string;
  pattern: string;
  exact: boolean;
  actor: GrantActor;
  /** The rule in plain words, as the permission card showed it. */
  words: string;
  createdAt: string;
};
