import { type Actor, may, type Signer, signedBy, signerOf } from "../auth/rules/rights";
import { type HeldRule, releasesHeld } from "../review/rules/review-policy";
import { appendAudit } from "../db/people/audit";
import { findPerson } from "../db/people/people";
import type { Conn, Db } from "../db/client";
import { replyToRequest, sessionOfRequest } from "../db/permissions/requests";
import { AppError } from "../errors";
import { gate, grantsAllow, type Ruleset } from "../permission";
import { OUTSIDE_NARROWING } from "../external/submit-external-ask";
import { loadSessionContext } from "./session-context";
import { appendEvents } from "../session/append-events";
import { grantRules, insertGrants, type GrantActor, type NewGrant } from "../session/grant-store";
import { isExternalModel } from "../session/external-agents";
import { verifySession } from "../verify/verify-session";
import { gradeWithVerifierModel } from "./verifier-model";
import { kick } from "./kick";
import { listRequests, type PermissionRequestView } from "../session/permission-store";

export type Reply = {
  reply: "once" | "always" | "reject";
  message?: string;
  scope?: "session" | "workspace";
  rules?: string[];
  /** An owner's reason for releasing a held path they are not a reviewer of (an override of the review policy). */
  reason?: string;
};

type Choice = { pattern: string; options: { rule: string; exact: boolean }[] };

async function mark(
  db: Db,
  req: PermissionRequestView,
  status: Reply["reply"],
  message: string | null,
  scope: string | null,
  signer: Signer | undefined,
  extra?: (conn: Conn) => Promise<void>,
  /** Said after the signer's name on the timeline (an owner's override and its reason). */
  note?: string,
): Promise<boolean> {
  let won = false;
  await appendEvents(
    db,
    req.sessionId,
    [
      {
        type: "permission.replied",
        payload: {
          requestId: req.id,
          reply: status,
          ...(message ? { message } : {}),
          ...(signer ? { by: `${signedBy(signer)}${note ? ` ${note}` : ""}` } : {}),
        },
      },
    ],
    {
      // The first reply wins: the row only moves out of pending once, in the same transaction as its event.
      also: async (run) => {
        if (
          !(await replyToRequest(run, req.id, {
            status,
            message,
            scope,
            at: new Date(),
            ...(signer ? { signer } : {}),
          }))
        )
          throw new AppError("already_decided");
        await extra?.(run);
        won = true;
      },
    },
  );
  return won;
}

function choicesOf(req: PermissionRequestView): Choice[] {
  const stored = req.metadata.alwaysOptions;
  if (Array.isArray(stored)) return stored as Choice[];
  // Requests without choices (folder asks, doom loops) save their patterns as they are.
  return req.always.map((rule, i) => ({ pattern: req.patterns[i] ?? rule, options: [{ rule, exact: false }] }));
}

/**
 * The grants an "always" reply saves: by default the widest rule offered for each pattern, or the narrower
 * ones the person picked. A rule that was not offered for this request is refused, never saved.
 */
export function grantsFor(req: PermissionRequestView, picked: string[] | undefined): NewGrant[] {
  const choices = choicesOf(req);
  if (picked === undefined) {
    return choices.flatMap((c) => {
      const last = c.options[c.options.length - 1];
      return last ? [{ permission: req.permission, pattern: last.rule, exact: last.exact }] : [];
    });
  }
  const out: NewGrant[] = [];
  for (const rule of picked) {
    const option = choices.flatMap((c) => c.options).find((o) => o.rule === rule);
    if (!option) throw new AppError("bad_request", `rules: "${rule}" is not one of the rules offered for this request`);
    out.push({ permission: req.permission, pattern: option.rule, exact: option.exact });
  }
  const uncovered = choices.find((c) => !c.options.some((o) => picked.includes(o.rule)));
  if (uncovered) throw new AppError("bad_request", `rules: choose a rule for "${uncovered.pattern}"`);
  return out;
}

type Owner = { workspace: string; actor: GrantActor };

/** The request's workspace, and whom its asks are for: Plangate's sandboxed agent or an outside agent (from the server's row). */
async function ownerOf(db: Db, req: PermissionRequestView): Promise<Owner> {
  const row = await sessionOfRequest(db, req.id);
  return { workspace: row?.workspace ?? "", actor: row && isExternalModel(row.model) ? "outside" : "agent" };
}

/** The rules that only narrow for this session: its workspace config's deny and ask rules (for Plangate's agent, as its context has them). */
async function narrowingOf(db: Db, sessionId: string, owner: Owner): Promise<Ruleset | null> {
  if (owner.actor === "outside") return OUTSIDE_NARROWING;
  // A session whose agent cannot be built now (its config changed) is not answered by a grant: it waits for a person.
  return loadSessionContext(db, sessionId).then(
    (c) => c.narrowing,
    () => null,
  );
}

/**
 * Whether saved grants now answer a pending request the way the gate would: the same actor, exact-only
 * commands, no control files, the workspace's narrowing rules, and never a command that would run unsandboxed.
 */
async function coveredByGrants(db: Db, req: PermissionRequestView): Promise<boolean> {
  if (req.metadata.control === true) return false;
  const owner = await ownerOf(db, req);
  const grants = await grantRules(db, req.sessionId, owner.workspace, owner.actor);
  const exactOnly = Array.isArray(req.metadata.exactOnly) ? (req.metadata.exactOnly as string[]) : [];
  const unsandboxed = req.metadata.sandboxed === false;
  const narrowing = await narrowingOf(db, req.sessionId, owner);
  return (
    narrowing !== null &&
    grantsAllow(
      owner.actor,
      { permission: req.permission, patterns: req.patterns, exactOnly, readOnly: false, unsandboxed },
      grants,
      narrowing,
    )
  );
}

/** The held paths an ask touches, and whom they belong to, as the server recorded them with the ask. */
function heldForOf(req: PermissionRequestView): HeldRule[] {
  const v = req.metadata.heldFor;
  return Array.isArray(v) ? (v as HeldRule[]) : [];
}

/** The folder an external_directory pattern names (`/srv/other/*` → `/srv/other`). */
const folderOf = (pattern: string) => (pattern.endsWith("/*") ? pattern.slice(0, -2) || "/" : pattern);

const who = (rules: readonly HeldRule[]) => {
  const people = [...new Set(rules.flatMap((r) => r.reviewers))];
  return people.length ? people.join(" or ") : "nobody named (it was held before reviewers were recorded)";
};

/**
 * Whether `actor` may give this reply, asked of the one gate (issue 41): "always" never for a control file or a
 * held path; a held path only by one of the reviewers it is held for, or by an owner with a reason. Throws the
 * 400 (what to add) or the 403 (who may); returns whether the answer is an owner's override.
 */
async function judgeAnswer(
  db: Db,
  req: PermissionRequestView,
  input: Reply,
  actor: Actor,
  workspace: string,
): Promise<{ override: string | null; held: HeldRule[] }> {
  const held = heldForOf(req);
  const reason = input.reason?.trim() || undefined;
  if (reason !== undefined && input.reply !== "once")
    throw new AppError("bad_request", 'reason: an override\'s reason goes with "once"');
  const person = held.length > 0 && actor.kind !== "operator" && actor.kind !== "agent-token" ? actor.userId : null;
  const email = person ? ((await findPerson(db, { id: person }))?.email ?? null) : null;
  const namedReviewer = releasesHeld(held, email);
  const owner = may(actor, "manage", workspace);
  const outside = req.permission === "external_directory" ? req.patterns.map(folderOf) : [];
  const d = gate({
    about: "answer",
    reply: input.reply,
    control: req.metadata.control === true,
    held: held.length > 0,
    namedReviewer,
    owner,
    ...(reason ? { reason } : {}),
    ...(outside.length > 0 ? { outside: { mayAnswerThere: outside.every((f) => may(actor, "answer", f)) } } : {}),
  });
  if (d.action !== "allow" && held.length === 0 && d.fix === undefined)
    throw new AppError(
      "forbidden",
      `You may not allow ${outside.join(", ")}: only someone who may answer asks there may show it to a model or let one change it (outside every workspace root, only the operator).`,
    );
  if (d.action !== "allow") {
    const paths = [...new Set(held.map((r) => r.pattern))].join(", ");
    if (d.fix === "once")
      throw new AppError(
        "bad_request",
        "A write to a control file (.plangate, .git, agent or editor settings) or to a held path can only be allowed once.",
      );
    if (d.fix === "reason")
      throw new AppError(
        "bad_request",
        `reason: ${paths} is held by the review policy for ${who(held)}; an owner releases it only with a reason (an override, recorded in the audit log).`,
      );
    throw new AppError(
      "forbidden",
      `Only ${who(held)} may allow this: ${paths} is held by the review policy for them (they did not approve the plan). An owner may override it, with a reason.`,
    );
  }
  return { override: held.length > 0 && !namedReviewer && input.reply === "once" ? (reason ?? null) : null, held };
}

/** POST /api/permissions/:id/reply. Side effects (resuming turns) happen after the commits. */
export async function replyPermission(
  db: Db,
  requestId: string,
  input: Reply,
  actor: Actor,
): Promise<PermissionRequestView> {
  const signer = signerOf(actor) ?? undefined;
  const [current] = await listRequests(db, { id: requestId });
  if (!current) throw new AppError("permission_not_found");
  if (current.status !== "pending")
    throw new AppError("already_decided", `That permission request was already answered: ${current.status}.`, {
      status: current.status,
    });
  if (input.reply !== "always" && input.rules !== undefined)
    throw new AppError("bad_request", 'rules: only an "always" reply saves rules');
  const owner = await ownerOf(db, current);
  const { override, held } = await judgeAnswer(db, current, input, actor, owner.workspace);
  const sessions = new Set([current.sessionId]);

  if (input.reply === "reject") {
    await mark(db, current, "reject", input.message ?? null, null, signer);
    // Rejecting one ask rejects the session's other pending asks too: the user wants the agent to stop and listen.
    for (const other of await listRequests(db, { sessionId: current.sessionId, status: "pending" })) {
      await mark(db, other, "reject", input.message ?? null, null, signer).catch(() => false);
    }
  } else if (input.reply === "once") {
    // An owner's override is recorded with the answer, in its transaction: who, why, and what was held for whom.
    const audit =
      override !== null && signer
        ? (conn: Conn) =>
            appendAudit(conn, {
              signer,
              kind: "permission.overridden",
              sessionId: current.sessionId,
              workspace: owner.workspace,
              subject: current.id,
              detail: { reason: override, heldFor: held },
            })
        : undefined;
    await mark(
      db,
      current,
      "once",
      null,
      null,
      signer,
      audit,
      override ? `(overriding the review policy: ${override})` : undefined,
    );
  } else {
    const grants = grantsFor(current, input.rules);
    const scope = input.scope ?? "session";
    // The grant answers for whom the ask came from: an outside agent's ask saves a grant for outside agents only.
    const { workspace, actor: grantActor } = owner;
    await mark(db, current, "always", null, scope, signer, (conn) =>
      insertGrants(conn, scope, current.sessionId, workspace, grants, grantActor),
    );
    // Other pending asks that the new grant now covers are answered too (OpenCode's behaviour, but persisted).
    const others = await listRequests(
      db,
      scope === "session" ? { sessionId: current.sessionId, status: "pending" } : { workspace, status: "pending" },
    );
    for (const other of others) {
      if (await coveredByGrants(db, other)) {
        if (await mark(db, other, "always", null, scope, signer).catch(() => false)) sessions.add(other.sessionId);
      }
    }
  }
  for (const id of sessions) kick(db, id);
  // A reply about the workspace's verify command lets the check that waited on it go on (or run without it).
  if (current.tool === "verify")
    void verifySession(db, current.sessionId, gradeWithVerifierModel).catch((error: unknown) =>
      console.error(`plangate: verifying ${current.sessionId} failed`, error),
    );
  const [after] = await listRequests(db, { id: requestId });
  return after ?? current;
}

/** The session (and its workspace) a permission request belongs to: whose roles may answer it. */
export async function sessionOfPermission(db: Db, requestId: string) {
  return sessionOfRequest(db, requestId);
}
