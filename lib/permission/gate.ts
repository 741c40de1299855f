import type { ModeGates, PermissionMode } from "./modes";
import type { Action, Rule } from "./types";

/**
 * Who is acting. Every answer starts here, because the same rule means different things for each:
 * - agent: Plangate's own agent, whose commands run in Plangate's sandbox (workspace only, no network);
 * - outside: an outside coding agent (Claude Code, OpenCode…), which runs on the host, with the network;
 * - model: a model answering for others (a team lead's model deciding a teammate's plan);
 * - person: a person at the browser. Only a route that took the request from a person says so; nothing a
 *   model, a workspace file or an outside agent sends can.
 */
export type Actor = "agent" | "outside" | "model" | "person";

/** A tool call of Plangate's agent, or an outside agent's permission ask: may it go ahead without a person? */
export type CallFacts = {
  actor: "agent" | "outside";
  permission: string;
  pattern: string;
  mode: PermissionMode;
  gates: ModeGates;
  /** The call cannot change anything: read, list, glob, grep, question, todo_write, plan_exit, read-only sandboxed bash. */
  readOnly: boolean;
  /** The call writes exactly this session's plan file. */
  planFile?: boolean;
  insideWorkspace?: boolean;
  /** The call writes a control file (.plangate, .git, agent or editor settings, shell rc files). */
  control?: boolean;
  /** The call writes under a path a review policy holds for named reviewers (issue 41): only one of them answers. */
  held?: boolean;
  /**
   * The pattern is one simple command of literal words (no redirection, substitution, expansion or newline),
   * or a path: only then may a prefix rule ("mkdir *") answer it. False: only an exact rule (or "*") may.
   */
  plain?: boolean;
  /** A person allowed this very pattern for this very call, answering its ask. */
  personAllowed?: boolean;
  /** The command would run on the host: no sandbox of Plangate's holds it (bubblewrap missing or off). */
  unsandboxed?: boolean;
};

export type CallQuestion = CallFacts & {
  about: "call";
  /** The rule that answers (last match wins) among those that may widen for this actor: native, trusted config, grants. */
  rule: Rule | undefined;
  /** The rule that answers among the narrowing ones (a workspace config's deny and ask rules): the stricter answer wins. */
  narrowing?: Rule | undefined;
};

/** A decision on a plan review (the desk, a team's mailbox, a lead's model): may this actor make it? */
export type PlanQuestion = {
  about: "plan";
  actor: Actor;
  decision: "approve" | "reject" | "abandon";
  /** Whose plan: Plangate's own agent's, or an outside agent's (which would then act on the host). */
  planOf: "agent" | "outside";
  /** The team requires a person for every teammate plan. */
  personRequired?: boolean;
  /** A deciding model's own rights now: the mode it is in and whether its agent is read-only. */
  model?: { mode: PermissionMode; readOnly: boolean };
};

/**
 * A person's answer to an ask (issue 41): may this answerer give it? Rejecting is anyone's who may answer; "always"
 * is never given for a control file or a held path; a held path is released only by one of the reviewers it is held
 * for, or by an owner's override with a reason.
 */
export type AnswerQuestion = {
  about: "answer";
  reply: "once" | "always" | "reject";
  /** The ask writes a control file or a held path. */
  control: boolean;
  /** The ask writes under a path a review policy holds for named reviewers. */
  held: boolean;
  /** The answerer is one of the reviewers every held path of the ask is held for. */
  namedReviewer: boolean;
  /** The answerer owns the workspace (manage): they may override, saying why. */
  owner: boolean;
  /** The override's reason, when one was given. */
  reason?: string;
  /**
   * The ask is about folders outside the session's workspace (external_directory): whether the answerer may answer
   * asks in every one of them (a role there; outside every root, only the operator).
   */
  outside?: { mayAnswerThere: boolean };
};

export type GateQuestion = CallQuestion | PlanQuestion | AnswerQuestion;

/**
 * fix: what a refused answer lacks, when adding it would make it one (a reason for an override, "once" instead of
 * "always"): the caller's 400 rather than its 403.
 * asWritten: a person allowed this very call's text, or bypassPermissions did (a command may then write control
 * files and git uses the repository's settings). A saved grant never is: an exact "always npm test" runs again
 * after the agent edited what `npm test` runs.
 */
export type Decision = { action: Action; reason: string; rule?: Rule; asWritten?: true; fix?: "reason" | "once" };

/**
 * Which rules may answer for whom. Plangate's agent: the native rules, a trusted workspace config and the
 * person's grants made for it; an untrusted config only narrows. Outside agents run without our sandbox: only
 * a person's grants made for outside agents may allow anything for them; a workspace config (trusted or not)
 * may only narrow, and a native rule or a grant made for the sandboxed agent never applies.
 */
export function ruleApplies(actor: Actor, rule: Rule): boolean {
  const source = rule.source ?? "native";
  const narrows = rule.action !== "allow";
  if (actor === "agent") return source === "untrusted-config" ? narrows : source !== "outside-grant";
  if (actor === "outside")
    return source === "outside-grant"
      ? rule.action === "allow"
      : (source === "config" || source === "untrusted-config") && narrows;
  return false;
}

const hasWildcard = (pattern: string) => pattern.includes("*") || pattern.includes("?");

/** The rule, when it may answer for this actor and this pattern (a hot path: no closure per call). */
function usable(actor: Actor, r: Rule | undefined, plain: boolean): Rule | undefined {
  return r !== undefined && ruleApplies(actor, r) && answersAsWritten(r, plain) ? r : undefined;
}

/** A wildcard allow may answer only a plain pattern; an exact rule, a literal one and the blanket "*" answer any. */
function answersAsWritten(rule: Rule, plain: boolean): boolean {
  return plain || rule.action !== "allow" || rule.exact === true || rule.pattern === "*" || !hasWildcard(rule.pattern);
}

function describeRule(rule: Rule): string {
  const from = rule.source && rule.source !== "native" ? ` (${rule.source})` : "";
  return `rule ${rule.permission} "${rule.pattern}" → ${rule.action}${from}`;
}

// Rules are long-lived and judged over and over: the decision a rule gives on its own is built once (and
// frozen, since it is shared), so the gate's common path allocates nothing here.
const ruleDecisions = new WeakMap<Rule, Decision>();
const NO_RULE: Decision = Object.freeze({ action: "ask", reason: "no rule matched" });

function ruleDecision(rule: Rule | undefined): Decision {
  if (rule === undefined) return NO_RULE;
  let d = ruleDecisions.get(rule);
  if (d === undefined) {
    d = Object.freeze({ action: rule.action, reason: describeRule(rule), rule });
    ruleDecisions.set(rule, d);
  }
  return d;
}

function decision(rule: Rule | undefined, action: Action, reason: string, asWritten = false): Decision {
  const d: Decision = rule ? { action, reason, rule } : { action, reason };
  if (asWritten) d.asWritten = true;
  return d;
}

/** Modes that turn "ask" into "allow" still ask about a looping agent: that is a question about the agent, not the call. */
const ALWAYS_ASK = "doom_loop";
const RANK: Record<Action, number> = { allow: 0, ask: 1, deny: 2 };
/** Permissions whose pattern is a command that runs: the agent's shell, its network, the workspace's verify command. */
const COMMANDS = new Set(["bash", "network", "verify"]);

/** The question about a path outside the workspace (its pattern is the folder, `dir/*`). */
const OUTSIDE = "external_directory";

/**
 * A folder outside the workspace is a question about the world beyond it, and the call's view then shows that
 * folder: only a person answers it, once or by a grant made for Plangate's agent for exactly that folder. No mode
 * (acceptEdits, auto, bypassPermissions), no rule of a workspace config or of the agent, and no grant for another
 * folder (`/a/*` matches `/a/b/*` as a pattern) answers it.
 */
function outsideFolder(rule: Rule | undefined, folder: string): Decision {
  if (rule?.action === "allow" && rule.source === "grant" && rule.pattern === folder)
    return decision(rule, "allow", "a person's grant for this folder");
  return { action: "ask", reason: "a path outside the workspace: only a person may allow it" };
}

/**
 * A change outside the workspace (a write a person's folder grant let the call reach) is a person's question too:
 * once, or their grant for exactly that path. A folder grant made for a read, acceptEdits, auto and
 * bypassPermissions never answer it.
 */
function outsideChange(rule: Rule | undefined, target: string): Decision {
  if (rule?.action === "allow" && rule.source === "grant" && rule.pattern === target)
    return decision(rule, "allow", "a person's grant for this path");
  return { action: "ask", reason: "a change outside the workspace: only a person may allow it" };
}

/** Plangate's sandboxed agent: the rule first, then the session's permission mode on top. */
function agentCall(rule: Rule | undefined, q: CallFacts): Decision {
  const base = ruleDecision(rule);
  if (base.action === "deny") return base;
  if (q.personAllowed === true) return decision(rule, "allow", "allowed once by a person", true);
  if (q.permission === OUTSIDE) return outsideFolder(rule, q.pattern);
  if (q.insideWorkspace === false && !q.readOnly && q.mode !== "plan") return outsideChange(rule, q.pattern);
  // A command that cannot change anything (allowlisted, or sandboxed read-only) needs no question.
  if (base.action === "ask" && q.readOnly && q.permission === "bash")
    return decision(rule, "allow", "read-only command");
  // A path a review policy holds belongs to its named reviewers: no rule, grant or mode answers it, not even
  // bypassPermissions (who may answer is the answer's own question, below). Plan mode keeps its stricter answer.
  if (q.held === true && q.mode !== "plan")
    return {
      action: "ask",
      reason:
        "a path the review policy holds for its reviewers: only one of them (or an owner, with a reason) may allow this write",
    };
  // Control files steer the agent's own rights and what runs later: only a person answers, whatever a rule,
  // an "always" grant, acceptEdits or auto says. Plan mode keeps its own stricter answer below.
  if (q.control === true && q.mode !== "plan") {
    if (q.mode === "bypassPermissions" && q.gates.bypassEnabled)
      return decision(rule, "allow", "bypassPermissions mode", true);
    return {
      action: "ask",
      reason: "a control file, or a path the approval left held: only a person may allow this write",
    };
  }
  // Where no sandbox of ours holds the command, nothing but a person (or the operator's bypass) answers it;
  // plan mode keeps its own answer (denied).
  if (q.unsandboxed === true && !q.readOnly && q.mode !== "plan" && COMMANDS.has(q.permission)) {
    if (q.mode === "bypassPermissions" && q.gates.bypassEnabled)
      return decision(rule, "allow", "bypassPermissions mode", true);
    return decision(rule, "ask", "no sandbox on this machine: the command would run on the host, so a person decides");
  }
  const d = withMode(rule, base, q);
  // bypassPermissions allows everything as written.
  return d.action === "allow" && q.mode === "bypassPermissions" && d.asWritten !== true ? { ...d, asWritten: true } : d;
}

/** What the session's mode makes of the rule's answer. A mode can only tighten (plan) or answer an ask. */
function withMode(rule: Rule | undefined, base: Decision, q: CallFacts): Decision {
  switch (q.mode) {
    case "plan":
      if (q.readOnly) return base;
      if (q.planFile === true) return decision(rule, "allow", "plan mode: writing the plan file");
      return decision(rule, "deny", "plan mode: only the plan file may be written");
    case "acceptEdits":
      if (base.action === "ask" && q.permission === "edit" && q.insideWorkspace === true)
        return decision(rule, "allow", "acceptEdits mode: edit inside the workspace");
      return base;
    case "auto":
      if (base.action !== "ask" || q.permission === ALWAYS_ASK) return base;
      return q.gates.autoGateOpen
        ? decision(rule, "allow", "auto mode")
        : decision(rule, "ask", `${base.reason}; auto mode gate closed`);
    case "bypassPermissions":
      if (base.action !== "ask" || q.permission === ALWAYS_ASK) return base;
      return q.gates.bypassEnabled
        ? decision(rule, "allow", "bypassPermissions mode")
        : decision(rule, "ask", `${base.reason}; bypassPermissions not enabled`);
    case "default":
      return base;
  }
}

/**
 * An outside agent's ask. Plangate's sandbox does not hold its commands, and its own mode is its own: the
 * workspace's rules may refuse, a person's grant for outside agents may allow a plain command or a path, a
 * control file always goes to a person, and everything else asks.
 */
function outsideCall(rule: Rule | undefined, narrowing: Rule | undefined, q: CallFacts): Decision {
  if (narrowing?.action === "deny") return ruleDecision(narrowing);
  if (rule?.action === "deny") return ruleDecision(rule);
  if (q.personAllowed === true) return decision(rule, "allow", "allowed once by a person", true);
  if (q.control === true) return { action: "ask", reason: "a control file: only a person may allow this, once" };
  // The workspace asks a person about this every time: a saved grant does not answer it.
  if (narrowing?.action === "ask")
    return decision(narrowing, "ask", `the workspace's config: ${describeRule(narrowing)}`);
  if (rule?.action === "allow")
    return decision(rule, "allow", `a person's grant for outside agents: ${describeRule(rule)}`);
  return decision(narrowing, "ask", "outside agents run without Plangate's sandbox: a person decides");
}

function planDecision(q: PlanQuestion): Decision {
  if (q.actor === "person") return { action: "allow", reason: "a person decided" };
  if (q.planOf === "outside")
    return {
      action: "deny",
      reason:
        "only a person may answer an outside agent's plan: it would then act on the host, outside Plangate's sandbox",
    };
  if (q.actor !== "model")
    return { action: "deny", reason: "only a person or the team lead's model may answer a plan" };
  // Sending a plan back or setting it aside changes nothing in the workspace.
  if (q.decision !== "approve") return { action: "allow", reason: "a model may send a plan back" };
  if (q.personRequired === true)
    return { action: "deny", reason: "this team requires a person to approve teammate plans in the mailbox" };
  if (q.model === undefined || q.model.mode === "plan" || q.model.readOnly) {
    return {
      action: "deny",
      reason: "the lead is in plan mode (or read-only) and cannot approve changes it may not make itself",
    };
  }
  return { action: "allow", reason: "the lead's model approved with the rights it has itself" };
}

function answerDecision(q: AnswerQuestion): Decision {
  if (q.reply === "reject") return { action: "allow", reason: "rejecting changes nothing" };
  // What a model may see or change beyond the workspace belongs to whoever may answer asks where it is.
  if (q.outside !== undefined && !q.outside.mayAnswerThere)
    return {
      action: "deny",
      reason: "a folder outside the workspace is allowed only by someone who may answer asks where it is",
    };
  if (q.reply === "always" && q.control)
    return {
      action: "deny",
      reason: "a write to a control file or a held path can only be allowed once",
      fix: "once",
    };
  if (!q.held) return { action: "allow", reason: "a person who may answer asks answered" };
  if (q.namedReviewer) return { action: "allow", reason: "one of the reviewers the path is held for answered" };
  if (q.owner && q.reason) return { action: "allow", reason: `an owner overrode the review policy: ${q.reason}` };
  if (q.owner)
    return {
      action: "deny",
      reason: "an owner may release a held path only with a reason (an override of the review policy)",
      fix: "reason",
    };
  return {
    action: "deny",
    reason: "only the reviewers the path is held for (or an owner, with a reason) may allow it",
  };
}

/**
 * The one decision function: may this happen without asking a person? Every surface asks it — a tool call
 * of Plangate's agent, an outside agent's ask, a plan or mailbox decision, a person's answer to an ask (who may
 * release a held path) — with the facts the server
 * checked: who acts, the parsed pattern, the control flag, the mode, and the rules that matched with their
 * sources. Rules that may not answer for the actor are ignored here as well as where they are looked up.
 */
export function gate(q: GateQuestion): Decision {
  if (q.about === "plan") return planDecision(q);
  if (q.about === "answer") return answerDecision(q);
  const plain = q.plain !== false;
  const rule = usable(q.actor, q.rule, plain);
  const narrowing =
    q.narrowing !== undefined && q.narrowing.action !== "allow" ? usable(q.actor, q.narrowing, plain) : undefined;
  if (q.actor === "outside") return outsideCall(rule, narrowing, q);
  const base = agentCall(rule, q);
  if (narrowing === undefined || base.action === "deny") return base;
  const narrowed = agentCall(narrowing, q);
  return RANK[narrowed.action] > RANK[base.action]
    ? { ...narrowed, reason: `the workspace's config: ${narrowed.reason}` }
    : base;
}
