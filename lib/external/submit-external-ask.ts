import path from "node:path";
import { sql, type Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../id";
import { evaluateRule, fromConfig } from "../permission";
import { appendEvents } from "../session/append-events";
import { grantRules } from "../session/grant-store";
import { listRequests, planRequests } from "../session/permission-store";
import { subscribeEvents } from "../session/bus";
import { watchLog } from "../session/log-watch";
import { loadWorkspaceConfig } from "../workspace/workspace-config";
import { isExternalModel, type ExternalAgent } from "../session/external-agents";
import { ensureExternalSession } from "./submit-external-plan";

/** Claude Code's tools that Plangate can judge, as Plangate's permission and pattern (null: left to the agent). */
export function plangateAsk(tool: string, input: Record<string, unknown>, workspace: string): { permission: string; pattern: string } | null {
  if (tool === "Bash" && typeof input.command === "string") return { permission: "bash", pattern: input.command };
  const file = typeof input.file_path === "string" ? input.file_path : typeof input.notebook_path === "string" ? input.notebook_path : null;
  if (["Edit", "Write", "MultiEdit", "NotebookEdit"].includes(tool) && file) {
    const rel = path.relative(workspace, path.resolve(workspace, file));
    // Outside the workspace Plangate's rules say nothing: the person decides in the agent's own dialog.
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return null;
    return { permission: "edit", pattern: rel };
  }
  return null;
}

export type AskOutcome = { requestId: string | null; status: "allow" | "deny" | "pending" | "once" | "always" | "reject"; message: string | null };

/**
 * A permission ask of an outside agent's tool: Plangate's saved rules for the workspace (its config and the
 * grants people saved with "always") answer it when they match; otherwise it becomes a pending ask on the
 * session's permission card (once / always / reject with a message), exactly as Plangate's own agent's.
 */
export async function submitExternalAsk(db: Db, a: { agent: ExternalAgent; externalId: string; workspace: string; tool: string; input: Record<string, unknown> }): Promise<AskOutcome> {
  const ask = plangateAsk(a.tool, a.input, a.workspace);
  if (!ask) throw new AppError("bad_request", `tool: Plangate does not judge ${a.tool} calls; answer it in the agent's dialog`);
  const sessionId = await ensureExternalSession(db, a);
  const config = loadWorkspaceConfig(a.workspace);
  const rule = evaluateRule(ask.permission, ask.pattern, config.permission ? fromConfig(config.permission) : [], await grantRules(db, sessionId, a.workspace));
  if (rule?.action === "allow") return { requestId: null, status: "allow", message: null };
  if (rule?.action === "deny") return { requestId: null, status: "deny", message: `Plangate's rules for this workspace deny ${ask.permission} ${ask.pattern}.` };
  // "Always" saves exactly this command or path: Plangate did not parse the agent's call, so it offers no prefix.
  const shown = ask.permission === "bash" ? { command: ask.pattern } : { path: ask.pattern };
  const { rows, events, write } = planRequests(sessionId, newId("call"), a.tool, [
    { permission: ask.permission, patterns: [ask.pattern], always: [ask.pattern], askPatterns: [ask.pattern], exactOnly: [ask.pattern], readOnly: false, metadata: { ...shown, agent: a.agent } },
  ]);
  await appendEvents(db, sessionId, events, { also: write });
  return { requestId: rows[0]?.id ?? null, status: "pending", message: null };
}

/** The ask's reply, waiting up to waitMs for a person. */
export async function awaitExternalAsk(db: Db, requestId: string, waitMs: number, signal?: AbortSignal): Promise<AskOutcome> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const [req] = await listRequests(db, { id: requestId });
    if (!req) throw new AppError("not_found", "No permission ask has that id.");
    const [owner] = await (await sql(db)).query<{ model: string }>('SELECT "model" FROM "Session" WHERE "id" = ?', [req.sessionId]);
    if (!owner || !isExternalModel(owner.model)) throw new AppError("forbidden", "That ask belongs to a Plangate agent's session, not an outside agent's.");
    const left = deadline - Date.now();
    if (req.status !== "pending" || left <= 0 || signal?.aborted) return { requestId, status: req.status, message: req.message ?? null };
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        unwatch();
        resolve();
      };
      const timer = setTimeout(done, Math.min(left, 2_000));
      const unsubscribe = subscribeEvents(req.sessionId, done);
      const unwatch = watchLog(db, req.sessionId, done);
    });
  }
}
