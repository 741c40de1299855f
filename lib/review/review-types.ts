// The plan review's plain data: views the pages take, the facts decide() weighs, who decides, and what a decision writes.
import type { AgentReceives } from "./rules/agent-receives";
import type { SessionState } from "../session/log/fold";
import type { NewEvent } from "../session/log/events";
import type { Actor, Signer } from "../auth/rules/rights";
import type { Approver, HeldRule, OwnersLine, ReviewPolicy } from "./rules/review-policy";
import type { ModeGates, PermissionMode } from "../permission";
import type { PlanThread, StoredComment } from "./anchor-threads";
import type { PlanDecision } from "./parse-decision";

export type ReviewView = {
  id: string;
  sessionId: string;
  kind: string;
  status: string;
  intent: unknown;
  payload: unknown;
  decision: string | null;
  answer: unknown;
  feedback: string | null;
  createdAt: string;
  decidedAt: string | null;
};

/** What a plan review shows (plain data, so that components may take it without reaching the database). */
export type PlanDetails = {
  planId: string;
  version: number;
  markdown: string;
  path: string;
  /** The session's workspace (checked when the session was made). */
  workspace: string;
  status: string;
  editedByUser: boolean;
  previous: { version: number; markdown: string } | null;
  /** Unified diff from the previous version (empty for the first). */
  diff: string;
  /** Threads started on earlier versions: beside their text in this one, resolved, or outdated. */
  threads: PlanThread[];
  /** The files its items name: what the review policy judges it by, shown on the card. */
  files: string[];
  /** For an outside agent's plan: what that agent receives with an approval (null: Plangate's own agent). */
  receives: AgentReceives | null;
};

/**
 * Who decides, as the route or tool that took the decision knows it: a person (on the desk or session page, or in a
 * team's mailbox), or a team lead's model with the rights it has now. Nothing in a request body can say "person".
 */
export type Decider =
  | { by: "person"; via: "desk" | "mailbox"; actor: Actor; signer?: Signer }
  | { by: "lead-model"; mode: PermissionMode; readOnly: boolean; personRequired: boolean; starterMay: boolean }
  | TerminalAnswer;

/** An outside agent's own dialog answered its plan before the desk did (its hook says what it chose, when it knows). */
export type TerminalAnswer = { by: "terminal"; answer: "approved" | "rejected" | "unknown" };

/** The team mailbox request a lead's answer closes: marked answered, with the response stored beside it. */
export type MailAnswer = { mailId: string; teamId: string; lead: string; teammate: string; requestId: string | null };

/** An approval that stands on the review, with when it was given. */
export type StandingApproval = Approver & { at: string };

/** The lead session's people (who answer a teammate's plan from the team's mailbox). */
export type LeadPeople = { workspace: string; startedBy: string | null; leads: readonly string[] };

/** What the review policy weighs a version by. */
export type PolicyFacts = {
  policy: ReviewPolicy;
  owners: OwnersLine[];
  files: string[];
  starter: string | null;
  approvals: StandingApproval[];
  /** One approval by anyone who may decide: nothing is weighed, no line is shown. */
  plain: boolean;
};

/** The reviewed version, as decide() needs it. */
export type VersionFacts = {
  id: string;
  planId: string;
  version: number;
  content: string;
  filePath: string;
  toolCallId: string | null;
  workspace: string;
  agent: string;
  outside: boolean;
  receives: AgentReceives | null;
};

/** Everything decide() weighs, read in the writer's transaction (ids and time injected). */
export type ReviewFacts = {
  review: { id: string; sessionId: string; status: string; lead: boolean };
  version: VersionFacts;
  needs: PolicyFacts;
  /** The decider's identity as the policy knows it (null: a model, or a token no rule names). */
  me: Approver | null;
  leadPeople: LeadPeople | null;
  /** Threads started on earlier versions of this plan, by id (only read when the decision answers threads). */
  roots: ReadonlyMap<string, StoredComment>;
  state: Pick<SessionState, "mode" | "prePlanMode" | "openTurnId">;
  gates: ModeGates;
  now: Date;
  turnId: string;
};

/** A row the writer applies in the decision's transaction (lib/db calls, one per kind). */
export type Row =
  | {
      kind: "close";
      status: "approved" | "rejected" | "abandoned" | "answered_elsewhere";
      decision: string;
      decidedBy: string;
      feedback: string | null;
      signer?: Signer;
      /** What a person's decision sets on the version (outside: an outside agent's folder is its own, no baseline). */
      version?: { content: string; editedByUser: boolean; outside: boolean };
    }
  | { kind: "answer-mail"; mail: MailAnswer; approve: boolean; feedback?: string }
  | { kind: "dismiss-approvals"; newVersion: number }
  | { kind: "approval"; approver: Approver; credential: string }
  | { kind: "comments"; planId: string; version: number; comments: NewPlanComment[]; author: string }
  | { kind: "resolve"; planId: string; ids: string[]; author: string }
  | { kind: "index-plan"; body: string }
  | { kind: "audit"; signer: Signer; what: string; workspace: string; detail: Record<string, unknown> }
  | { kind: "hold-baseline"; versionId: string; workspace: string };

/** A comment (or a reply, with its thread's id as parentId) as stored. */
export type NewPlanComment = {
  lineStart: number;
  lineEnd: number;
  quote: string;
  body: string;
  suggestion?: string | undefined;
  parentId?: string;
};

/** Work after the commit. */
export type Effect =
  | { kind: "write-plan"; workspace: string; file: string; content: string }
  | { kind: "baseline-then-drive" };

/** What a decision comes to: closed (the agent goes on), recorded (the review stays pending), or refused whole. */
export type Outcome =
  | { status: "closed" | "recorded"; events: NewEvent[]; rows: Row[]; effects: Effect[]; held: HeldRule[] }
  | { refused: { code: RefusalCode; message: string } };

export type RefusalCode = "forbidden" | "person_required" | "already_decided" | "bad_request" | "conflict";

/**
 * A decision as decide() takes it: the body; an owner's override reason (the caller checked manage); a setting
 * aside as the session leaves plan mode (the caller checked the right to leave it); the mailbox request it answers.
 */
export type DecisionInput = PlanDecision & { override?: string; aside?: true; mail?: MailAnswer };

/** Who decides, when it is someone the gate and the policy weigh (not an outside agent's own terminal). */
export type Judged = Exclude<Decider, TerminalAnswer>;
