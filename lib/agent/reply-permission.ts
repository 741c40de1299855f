import { sql, type Db } from "../db/client";
import type { SqlRunner } from "../db/sql";
import { AppError } from "../errors";
import { newId } from "../id";
import { evaluate, type Rule } from "../permission";
import { appendEvents } from "../session/append-events";
import { kick } from "./kick";
import { grantRules, listRequests, type PermissionRequestView } from "./permission-store";

export type Reply = { reply: "once" | "always" | "reject"; message?: string; scope?: "session" | "workspace" };

async function mark(db: Db, req: PermissionRequestView, status: Reply["reply"], message: string | null, scope: string | null, extra?: (run: SqlRunner) => Promise<void>): Promise<boolean> {
  let won = false;
  await appendEvents(
    db,
    req.sessionId,
    [{ type: "permission.replied", payload: { requestId: req.id, reply: status, ...(message ? { message } : {}) } }],
    {
      // The first reply wins: the row only moves out of pending once, in the same transaction as its event.
      also: async (run) => {
        const changed = await run.execute('UPDATE "PermissionRequest" SET "status" = ?, "reply" = ?, "message" = ?, "scope" = ?, "repliedAt" = ? WHERE "id" = ? AND "status" = ?', [
          status, status, message, scope, new Date(), req.id, "pending",
        ]);
        if (changed !== 1) throw new AppError("already_decided");
        await extra?.(run);
        won = true;
      },
    },
  );
  return won;
}

/** POST /api/permissions/:id/reply. Side effects (resuming turns) happen after the commits. */
export async function replyPermission(db: Db, requestId: string, input: Reply): Promise<PermissionRequestView> {
  const [current] = await listRequests(db, { id: requestId });
  if (!current) throw new AppError("permission_not_found");
  if (current.status !== "pending") throw new AppError("already_decided", `That permission request was already answered: ${current.status}.`, { status: current.status });
  const sessions = new Set([current.sessionId]);

  if (input.reply === "reject") {
    await mark(db, current, "reject", input.message ?? null, null);
    // Rejecting one ask rejects the session's other pending asks too: the user wants the agent to stop and listen.
    for (const other of await listRequests(db, { sessionId: current.sessionId, status: "pending" })) {
      await mark(db, other, "reject", input.message ?? null, null).catch(() => false);
    }
  } else if (input.reply === "once") {
    await mark(db, current, "once", null, null);
  } else {
    const scope = input.scope ?? "session";
    const [session] = await (await sql(db)).query<{ workspace: string }>('SELECT "workspace" FROM "Session" WHERE "id" = ?', [current.sessionId]);
    const workspace = session?.workspace ?? "";
    await mark(db, current, "always", null, scope, async (run) => {
      for (const pattern of current.always) {
        await run.execute('INSERT INTO "PermissionGrant" ("id", "scope", "sessionId", "workspace", "permission", "pattern", "action", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
          newId("grt"), scope, scope === "session" ? current.sessionId : null, workspace, current.permission, pattern, "allow", new Date(),
        ]);
      }
    });
    // Other pending asks that the new grant now covers are answered too (OpenCode's behaviour, but persisted).
    const others = await listRequests(db, scope === "session" ? { sessionId: current.sessionId, status: "pending" } : { workspace, status: "pending" });
    for (const other of others) {
      const grants: Rule[] = [...(await grantRules(db, other.sessionId, workspace))];
      if (other.patterns.every((p) => evaluate(other.permission, p, grants) === "allow")) {
        if (await mark(db, other, "always", null, scope).catch(() => false)) sessions.add(other.sessionId);
      }
    }
  }
  for (const id of sessions) kick(db, id);
  const [after] = await listRequests(db, { id: requestId });
  return after ?? current;
}
