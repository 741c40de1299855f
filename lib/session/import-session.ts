import { z } from "zod";
import { type Signer, signedBy, type Starter } from "../auth/rules/rights";
import { asClaim, claimLine, countClaims } from "./log/imported-claims";
import { appendAudit } from "../db/people/audit";
import { withTransaction, type Db } from "../db/client";
import { insertSession } from "../db/sessions";
import { insertPlan } from "../db/plans/plans";
import { insertLogRows } from "../db/session-log/append-rows";
import { assignSearchKey, indexDocs } from "../db/session-log/search-rows";
import { AppError } from "../errors";
import { newId } from "../id";
import { type MayCarry, resumeMode, type ModeGates } from "../permission";
import { parseNewEvent, type NewEvent } from "./log/events";
import { foldEvents, type SessionState } from "./log/fold";
import { projectionColumns } from "./log/projection";
import { searchDocs } from "./log/search-text";
import { afterCommit } from "./append-events";
import { cancelDangling } from "./close-pending";

/** The route's documented limit (413 beyond it): about 100,000 events of JSON. */
export const IMPORT_MAX_BYTES = 50_000_000;

export const importBody = z.object({
  format: z.literal("plangate.session.v1"),
  session: z
    .object({
      title: z.string().min(1).max(200),
      workspace: z.string().min(1),
      agent: z.string().min(1),
      model: z.string().min(1),
    })
    .passthrough(),
  events: z
    .array(
      z.object({ seq: z.number().int().min(1), type: z.string(), payload: z.unknown(), at: z.string().optional() }),
    )
    .min(1)
    .max(200_000),
});
export type ImportBody = z.infer<typeof importBody>;

/** What the server checked before the import (the same checks as creating a session) and derives paths from. */
export type ImportChecks = {
  workspace: string;
  agent: string;
  model: string;
  script: unknown[] | undefined;
  gates: ModeGates;
  /** Whether the importer may choose a mode the file carries (lib/auth/rules/mode-rights); else the session is in default. */
  mayCarry: MayCarry;
  /** The plan file for a slug, inside this workspace's plans folder: never a path from the file. */
  planPath: (slug: string) => string;
  /** A fresh plan slug (lib/plan/plan-paths planSlug): an imported session never takes a slug from the file. */
  newSlug: (firstPrompt: string | null) => string;
  /** The importer, who starts the imported session (the file never says who did). */
  starter?: Starter;
  /** Who imports: the import is their signed act (audited), and nothing the file says is signed by anyone. */
  importer: Signer;
};

const SLUG = /^[a-z0-9][a-z0-9-]{0,119}$/;
const NOT_RUN =
  "Not run: this call was still pending when the session was exported, and an imported session runs nothing it carries.";

type Stamped = NewEvent & { seq: number; at: Date };

/**
 * The file's plan slugs and plan ids, each replaced by a fresh one (the same one wherever the file repeats it): a
 * slug names a plan file, so one taken from the file could be another session's, and that session's plan then
 * this one's to write.
 */
type Fresh = {
  slugs: Map<string, string>;
  plans: Map<string, string>;
  firstPrompt: string | null;
  checks: ImportChecks;
};

function freshSlug(fresh: Fresh, claimed: string): string {
  let slug = fresh.slugs.get(claimed);
  if (slug === undefined) {
    slug = fresh.checks.newSlug(fresh.firstPrompt);
    fresh.slugs.set(claimed, slug);
  }
  return slug;
}

/**
 * Replaces what the file may not decide: where the session works, what it runs as, where its plan lives, and
 * whether it belongs to a team (a file's team.joined would make the session a member of a real team, able to send
 * its members mail and answer their plans: it becomes the file's claim, a notice).
 */
function rewrite(e: Stamped, i: number, fresh: Fresh): Stamped {
  const { checks } = fresh;
  if (e.type === "session.created") {
    if (i !== 0) throw new AppError("bad_request", `events.${i}: only the first event may be session.created`);
    const { script: _dropped, ...rest } = e.payload;
    const planSlug = rest.planSlug && SLUG.test(rest.planSlug) ? freshSlug(fresh, rest.planSlug) : null;
    return {
      ...e,
      payload: {
        ...rest,
        planSlug,
        workspace: checks.workspace,
        agent: checks.agent,
        model: checks.model,
        parentId: null,
        ...(checks.script ? { script: checks.script } : {}),
      },
    };
  }
  if (e.type === "plan.created") {
    if (!SLUG.test(e.payload.slug))
      throw new AppError(
        "bad_request",
        `events.${i}.payload.slug: not a plan slug (lowercase letters, digits and dashes)`,
      );
    const slug = freshSlug(fresh, e.payload.slug);
    let planId = fresh.plans.get(e.payload.planId);
    if (planId === undefined) {
      planId = newId("pln");
      fresh.plans.set(e.payload.planId, planId);
    }
    return { ...e, payload: { planId, slug, path: checks.planPath(slug) } };
  }
  if (e.type === "team.joined") {
    const { name, role } = e.payload;
    return {
      ...e,
      type: "notice",
      payload: { level: "info", text: claimLine(`This session joined a team as ${role} ${name}.`), imported: true },
    };
  }
  return asClaim(e);
}

/** Events that leave nothing of the export waiting or running: calls not run, asks and reviews closed, turn ended. */
function closing(events: readonly Stamped[], state: SessionState, checks: ImportChecks): NewEvent[] {
  const out: NewEvent[] = cancelDangling(events, NOT_RUN);
  for (const requestId of [...state.pendingPermissions, ...state.pendingChecks]) {
    out.push({ type: "permission.replied", payload: { requestId, reply: "reject", message: "Closed on import." } });
  }
  if (state.pendingReview)
    out.push({ type: "review.answered", payload: { reviewId: state.pendingReview.id, decision: "abandon" } });
  // A mode choice the file left queued would be applied at the first step, past the check of the carried mode.
  if (state.queuedMode !== null) out.push({ type: "mode.queued", payload: { target: null, cause: "resume" } });
  const mode = resumeMode(state.mode, state.prePlanMode, checks.gates, checks.mayCarry);
  if (mode.changed)
    out.push({
      type: "mode.changed",
      payload: { from: state.mode, to: mode.next.mode, prePlanMode: mode.next.prePlanMode, cause: "resume" },
    });
  if (state.openTurnId) out.push({ type: "turn.ended", payload: { turnId: state.openTurnId, reason: "aborted" } });
  out.push({
    type: "notice",
    payload: {
      level: "info",
      text: `Imported from a file by ${signedBy(checks.importer)}. Who decided what before this point is the file's claim: nobody signed it here.`,
    },
  });
  return out;
}

/**
 * A JSON export read back as a new session (new id, same log). The file is data, never authority: every event
 * is checked against the schema the app writes with, seqs must run 1..N, the workspace, agent, model and plan
 * paths are the server's own (checked or derived), and the session arrives idle with nothing pending, so it
 * runs nothing until a person sends a message. Who the file says decided is its claim (asClaim), never a
 * signature; the import itself is the importer's act, on the audit log with the session.
 */
export async function importSession(db: Db, body: ImportBody, checks: ImportChecks): Promise<{ id: string }> {
  const parsed = body.events.map((e, i): Stamped => {
    if (e.seq !== i + 1) throw new AppError("bad_request", `events.${i}.seq: expected ${i + 1}, got ${e.seq}`);
    let event: NewEvent;
    try {
      event = parseNewEvent(e);
    } catch (error) {
      throw new AppError(
        "bad_request",
        `events.${i} (${e.type}): ${error instanceof Error ? error.message.slice(0, 300) : "invalid"}`,
      );
    }
    return { ...event, seq: e.seq, at: e.at && !Number.isNaN(Date.parse(e.at)) ? new Date(e.at) : new Date() };
  });
  if (parsed[0]?.type !== "session.created")
    throw new AppError("bad_request", "events.0: the log must start with session.created");
  const first = parsed.find((e) => e.type === "message.user");
  const fresh: Fresh = {
    slugs: new Map(),
    plans: new Map(),
    firstPrompt: first?.type === "message.user" ? first.payload.text.slice(0, 500) : null,
    checks,
  };
  const events = parsed.map((e, i) => rewrite(e, i, fresh));
  const folded = foldEvents(events);
  const now = new Date();
  for (const e of closing(events, folded, checks)) events.push({ ...e, seq: events.length + 1, at: now });
  const state = foldEvents(events);
  const id = newId("ses");
  const result = await withTransaction(db, async (trx) => {
    await insertSession(trx, {
      id,
      title: body.session.title,
      workspace: checks.workspace,
      agent: checks.agent,
      model: checks.model,
      startedBy: checks.starter?.startedBy ?? null,
      ...projectionColumns(state, now),
      createdAt: now,
    });
    await insertLogRows(trx, id, events, (e) => e.at);
    // The session's own plan records, under the fresh ids: its plans are submitted and reviewed as any session's.
    const planned = new Set<string>();
    for (const e of events) {
      if (e.type !== "plan.created" || planned.has(e.payload.planId) || planned.has(e.payload.slug)) continue;
      planned.add(e.payload.planId).add(e.payload.slug);
      await insertPlan(trx, {
        id: e.payload.planId,
        sessionId: id,
        slug: e.payload.slug,
        filePath: e.payload.path,
        at: now,
      });
    }
    await assignSearchKey(trx, id);
    await indexDocs(trx, id, searchDocs(events));
    await appendAudit(trx, {
      signer: checks.importer,
      kind: "session.imported",
      sessionId: id,
      workspace: checks.workspace,
      subject: body.session.title,
      detail: { events: body.events.length, claims: countClaims(events) },
    });
    return { events: [], state };
  });
  afterCommit(id, result);
  return { id };
}
