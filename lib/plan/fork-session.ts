import fs from "node:fs";
import path from "node:path";
import { ormTransaction, sql, type Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../id";
import { afterCommit, appendEventsInTx, insertLogRows } from "../session/append-events";
import type { NewEvent } from "../session/events";
import { foldEvents } from "../session/fold";
import { getSession } from "../session/get-session";
import { projectionColumns } from "../session/projection";
import { readEvents } from "../session/read-events";
import { assignSearchKey, indexDocs, searchDocs } from "../session/search-index";
import { planFilePath, planSlug } from "./plan-paths";
import { writePlanRows } from "./ensure-plan";

/**
 * Forks a session at a point of its log: the copy keeps the events up to there (so its plan-mode state is the
 * original's at that point), gets a new plan slug, and a copy of the plan file so the two never overwrite each other.
 */
export async function forkSession(db: Db, sourceId: string, atSeq?: number) {
  const { session: source } = await getSession(db, sourceId);
  const upto = atSeq ?? source.lastSeq;
  if (upto < 1 || upto > source.lastSeq) throw new AppError("bad_request", `atSeq: must be between 1 and ${source.lastSeq}`);
  const copied = await readEvents(db, sourceId, { upto });
  const before = foldEvents(copied);
  const id = newId("ses");
  const at = new Date();
  const extra: NewEvent[] = [{ type: "session.forked", payload: { fromSessionId: sourceId, atSeq: upto } }];
  if (before.planPath) {
    const slug = planSlug(before.firstPrompt);
    extra.push({ type: "plan.created", payload: { planId: newId("pln"), slug, path: planFilePath(path.dirname(before.planPath), slug) } });
  }

  const result = await ormTransaction(db, async (tx, run) => {
    await tx.session.create({
      data: {
        id, title: `${source.title} (fork)`, workspace: source.workspace, agent: source.agent, model: source.model,
        forkedFromId: sourceId, forkSeq: upto, teamId: null, role: null, ...projectionColumns(before, at), createdAt: at,
      },
    });
    await insertLogRows(run, id, copied, (e) => new Date(e.at));
    await assignSearchKey(run, id);
    await indexDocs(run, id, [{ kind: "title", body: `${source.title} (fork)` }, ...searchDocs(copied).filter((d) => d.kind !== "title")]);
    const appended = await appendEventsInTx(run, id, extra);
    await writePlanRows(run, id, appended.events);
    return appended;
  });
  afterCommit(id, result);
  // After the commit: the plan file is copied (or rebuilt from the newest version when the original is gone).
  const target = result.state.planPath;
  if (target && before.planPath) {
    let content: string | null = fs.existsSync(before.planPath) ? fs.readFileSync(before.planPath, "utf8") : null;
    if (content === null && before.planId) {
      const [v] = await (await sql(db)).query<{ content: string }>('SELECT "content" FROM "PlanVersion" WHERE "planId" = ? ORDER BY "version" DESC LIMIT 1', [before.planId]);
      content = v?.content ?? null;
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (content !== null) fs.writeFileSync(target, content);
  }
  return getSession(db, id);
}
