import { sql, type Db } from "../db/client";
import type { SqlRunner } from "../db/sql";
import { AppError } from "../errors";
import { newId } from "../id";
import type { Rule, Ruleset } from "../permission";
import { isSafePrefixRule } from "../sandbox/always-rules";

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

type Row = {
  id: string;
  scope: string;
  sessionId: string | null;
  workspace: string | null;
  permission: string;
  pattern: string;
  exact: number | boolean;
  actor: string;
  createdAt: string | Date;
};

// Commands are judged as shell text: an older wildcard grant that is no longer offered is read as exact text.
const COMMAND_PERMISSIONS = new Set(["bash", "network"]);

function isExact(r: Pick<Row, "permission" | "pattern" | "exact">): boolean {
  if (r.exact === true || r.exact === 1) return true;
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

function view(r: Row): GrantView {
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

const COLUMNS = '"id", "scope", "sessionId", "workspace", "permission", "pattern", "exact", "actor", "createdAt"';
const APPLIES = '("scope" = \'session\' AND "sessionId" = ?) OR ("scope" = \'workspace\' AND "workspace" = ?)';

/** Saved grants that apply to a session (its own and its workspace's), or all of a workspace's; for one actor or both. */
export async function listGrants(
  db: Db,
  where: ({ sessionId: string; workspace: string } | { workspace: string }) & { actor?: GrantActor },
): Promise<GrantView[]> {
  const [clause, args] =
    "sessionId" in where
      ? [`(${APPLIES})`, [where.sessionId, where.workspace]]
      : ['"workspace" = ?', [where.workspace]];
  const [actorClause, actorArgs] = where.actor ? [' AND "actor" = ?', [where.actor]] : ["", []];
  const rows = await (await sql(db)).query<Row>(
    `SELECT ${COLUMNS} FROM "PermissionGrant" WHERE ${clause}${actorClause} ORDER BY "createdAt", "id"`,
    [...args, ...actorArgs],
  );
  return rows.map(view);
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

export async function insertGrants(
  run: SqlRunner,
  scope: "session" | "workspace",
  sessionId: string,
  workspace: string,
  grants: readonly NewGrant[],
  actor: GrantActor,
): Promise<void> {
  for (const g of grants) {
    await run.execute(
      'INSERT INTO "PermissionGrant" ("id", "scope", "sessionId", "workspace", "permission", "pattern", "action", "exact", "actor", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        newId("grt"),
        scope,
        scope === "session" ? sessionId : null,
        workspace,
        g.permission,
        g.pattern,
        "allow",
        g.exact,
        actor,
        new Date(),
      ],
    );
  }
}

/** DELETE /api/grants/:id: the rule stops applying at the next call it would have answered. */
export async function revokeGrant(db: Db, id: string): Promise<GrantView> {
  const runner = await sql(db);
  const [row] = await runner.query<Row>(`SELECT ${COLUMNS} FROM "PermissionGrant" WHERE "id" = ?`, [id]);
  if (!row) throw new AppError("not_found", "No saved permission has that id.");
  await runner.execute('DELETE FROM "PermissionGrant" WHERE "id" = ?', [id]);
  return view(row);
}
