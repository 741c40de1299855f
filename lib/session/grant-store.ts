import { type Conn, type Db, withTransaction } from "../db/client";
import { appendAudit } from "../db/people/audit";
import type { Signer } from "../auth/rules/rights";
import { deleteGrant, insertGrants as insertGrantRows, selectGrants, type GrantRow } from "../db/permissions/grants";
import { AppError } from "../errors";
import { newId } from "../id";
import type { Rule, Ruleset } from "../permission";
import { isSafePrefixRule } from "../permission/prefix-rules";
import type { GrantActor, GrantView } from "./views/grant-view";

export type { GrantActor, GrantView } from "./views/grant-view";

// Commands are judged as shell text: an older wildcard grant that is no longer offered is read as exact text.
const COMMAND_PERMISSIONS = new Set(["bash", "network"]);

function isExact(r: Pick<GrantRow, "permission" | "pattern" | "exact">): boolean {
  if (r.exact) return true;
  return (
    COMMAND_PERMISSIONS.has(r.permission) && r.pattern !== "*" && /[*?]/.test(r.pattern) && !isSafePrefixRule(r.pattern)
  );
}

/** The rule in the same words the permission card used when it was saved. */
export function describeGrant(permission: string, pattern: string, exact: boolean): string {
  const head = pattern.endsWith(" *") ? pattern.slice(0, -2) : null;
  let what: string;
  if (exact || !/[*?]/.test(pattern)) what = `exactly \`${pattern}\``;
  else if (head !== null && !/[*?]/.test(head)) what = `\`${head}\` with any arguments`;
  else what = `\`${pattern}\` (* stands for anything)`;
  const verb =
    permission === "bash"
      ? "Run"
      : permission === "network"
        ? "Network for"
        : permission === "edit"
          ? "Write"
          : `${permission}:`;
  return `${verb} ${what}`;
}

function view(r: GrantRow): GrantView {
  const exact = isExact(r);
  return {
    id: r.id,
    scope: r.scope === "workspace" ? "workspace" : "session",
    sessionId: r.sessionId,
    workspace: r.workspace,
    permission: r.permission,
    pattern: r.pattern,
    exact,
    actor: r.actor === "outside" ? "outside" : "agent",
    words: describeGrant(r.permission, r.pattern, exact),
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

/** Saved grants that apply to a session (its own and its workspace's), or all of a workspace's; for one actor or both. */
export async function listGrants(
  db: Db,
  where: ({ sessionId: string; workspace: string } | { workspace: string }) & { actor?: GrantActor },
): Promise<GrantView[]> {
  return (await selectGrants(db, where)).map(view);
}

/** Persisted "always" replies that apply to a session, as allow rules for the one actor they were made for. */
export async function grantRules(
  db: Db,
  sessionId: string,
  workspace: string,
  actor: GrantActor = "agent",
): Promise<Ruleset> {
  return grantRuleset(await listGrants(db, { sessionId, workspace, actor }));
}

// Compiled rules are cached by ruleset identity: the same grants read again must be the same array, so a
// session's grants compile once per content, and a revoked or added grant gives a new array.
const interned = new Map<string, Ruleset>();
const NO_GRANTS: Ruleset = Object.freeze([]) as unknown as Ruleset;

/** Grants as allow rules (their source says whom they were made for), one shared array per distinct content. */
export function grantRuleset(
  grants: readonly (Pick<GrantView, "permission" | "pattern" | "exact"> & { actor?: GrantActor })[],
): Ruleset {
  if (grants.length === 0) return NO_GRANTS;
  const key = grants
    .map((g) => `${g.exact ? 1 : 0}${g.actor === "outside" ? "o" : "a"}${g.permission}\u0000${g.pattern}`)
    .join("\u0001");
  let rules = interned.get(key);
  if (rules) {
    // Re-inserted so that the bound below drops the least recently used content first.
    interned.delete(key);
  } else {
    rules = grants.map(
      (g): Rule => ({
        permission: g.permission,
        pattern: g.pattern,
        action: "allow",
        source: g.actor === "outside" ? "outside-grant" : "grant",
        ...(g.exact ? { exact: true } : {}),
      }),
    );
    if (interned.size >= 1000) interned.delete(interned.keys().next().value as string);
  }
  interned.set(key, rules);
  return rules;
}

export type NewGrant = { permission: string; pattern: string; exact: boolean };

/** Saves an "always" reply's grants; on the reply's transaction (`conn`), so they stand only if the reply does. */
export async function insertGrants(
  conn: Conn,
  scope: "session" | "workspace",
  sessionId: string,
  workspace: string,
  grants: readonly NewGrant[],
  actor: GrantActor,
): Promise<void> {
  await insertGrantRows(
    conn,
    grants.map((g) => ({
      id: newId("grt"),
      scope,
      sessionId: scope === "session" ? sessionId : null,
      workspace,
      permission: g.permission,
      pattern: g.pattern,
      exact: g.exact,
      actor,
      createdAt: new Date(),
    })),
  );
}

/** DELETE /api/grants/:id: the rule stops applying at the next call it would have answered. */
export async function revokeGrant(
  db: Db,
  id: string,
  /** Who revokes it, judged against the grant's workspace (throws to refuse: the grant then stays). */
  signerIn: (workspace: string) => Signer,
): Promise<GrantView> {
  return withTransaction(db, async (trx) => {
    const row = await deleteGrant(trx, id);
    if (!row) throw new AppError("not_found", "No saved permission has that id.");
    const signer = signerIn(row.workspace ?? "");
    await appendAudit(trx, {
      signer,
      kind: "grant.revoked",
      sessionId: row.sessionId,
      workspace: row.workspace,
      subject: id,
      detail: { permission: row.permission, pattern: row.pattern, scope: row.scope },
    });
    return view(row);
  });
}
