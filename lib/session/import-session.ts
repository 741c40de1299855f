import { z } from "zod";
import { ormTransaction, type Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../id";
import { parseNewEvent } from "./events";
import { foldEvents } from "./fold";
import { projectionColumns } from "./projection";
import { assignSearchKey, indexDocs, searchDocs } from "./search-index";
import { afterCommit, insertLogRows } from "./append-events";
import { checkWorkspace } from "../workspace/check-workspace";
import { getEnv } from "../env";

export const importBody = z.object({
  format: z.literal("plangate.session.v1"),
  session: z.object({ title: z.string().min(1).max(200), workspace: z.string().min(1), agent: z.string().min(1), model: z.string().min(1) }).passthrough(),
  events: z.array(z.object({ seq: z.number().int().min(1), type: z.string(), payload: z.unknown(), at: z.string().optional() })).min(1).max(200_000),
});
export type ImportBody = z.infer<typeof importBody>;

/**
 * A JSON export read back as a new session (new id, same log): every event is checked against its schema and
 * seqs must run 1..N. Nothing runs: a turn open in the export is closed as interrupted by the fold's rules.
 */
export async function importSession(db: Db, body: ImportBody): Promise<{ id: string }> {
  const events = body.events.map((e, i) => {
    if (e.seq !== i + 1) throw new AppError("bad_request", `events.${i}.seq: expected ${i + 1}, got ${e.seq}`);
    try {
      return { ...parseNewEvent(e), seq: e.seq, at: e.at ? new Date(e.at) : new Date() };
    } catch (error) {
      throw new AppError("bad_request", `events.${i} (${e.type}): ${error instanceof Error ? error.message.slice(0, 300) : "invalid"}`);
    }
  });
  if (events[0]?.type !== "session.created") throw new AppError("bad_request", "events.0: the log must start with session.created");
  // The copy works on the same folder: it must still be inside the allowed roots here.
  const workspace = checkWorkspace(body.session.workspace, getEnv().workspaceRoots);
  const folded = foldEvents(events);
  // A turn that was open in the export has nobody driving it here: it arrives interrupted (and can be resumed).
  if (folded.openTurnId) events.push({ type: "turn.interrupted", payload: { turnId: folded.openTurnId }, seq: events.length + 1, at: new Date() });
  const id = newId("ses");
  const state = folded.openTurnId ? foldEvents(events) : folded;
  const at = new Date();
  const result = await ormTransaction(db, async (tx, run) => {
    await tx.session.create({ data: { id, title: body.session.title, workspace, agent: body.session.agent, model: body.session.model, ...projectionColumns(state, at), createdAt: at } });
    await insertLogRows(run, id, events, (e) => e.at);
    await assignSearchKey(run, id);
    await indexDocs(run, id, searchDocs(events));
    return { events: [], state };
  });
  afterCommit(id, result);
  return { id };
}
