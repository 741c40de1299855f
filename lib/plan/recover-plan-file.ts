import fs from "node:fs";
import path from "node:path";
import type { Db } from "../db/client";
import { latestPlanContent } from "../db/plans/latest-plan-content";
import { findSessionModel } from "../db/plans/reviews";
import { appendEvents } from "../session/append-events";
import type { SessionEvent } from "../session/log/events";
import { readEvents } from "../db/session-log/read-events";
import { foldEvents } from "../session/log/fold";
import { isExternalModel } from "../session/external-agents";
import { writePlanFile } from "./plan-file";

/** The newest plan text the log itself holds: exit_plan_mode's `plan` input, or a write to the plan file. */
export function planFromLog(events: readonly SessionEvent[], file: string): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.type !== "tool.called") continue;
    const input = e.payload.input as { plan?: unknown; path?: unknown; content?: unknown } | null;
    if (e.payload.tool === "exit_plan_mode" && typeof input?.plan === "string") return input.plan;
    if (
      e.payload.tool === "write" &&
      typeof input?.content === "string" &&
      typeof input.path === "string" &&
      path.resolve(path.dirname(file), input.path) === file
    )
      return input.content;
  }
  return null;
}

/**
 * A plan survives the loss of its file: on resume the file is rewritten from the latest submitted version, or
 * else from the log. Returns where it came from, or null when nothing needed restoring.
 */
export async function recoverPlanFile(db: Db, sessionId: string): Promise<"version" | "log" | null> {
  // An outside agent keeps its own plan file: the path it sent is shown, never written (it could name any file).
  const model = await findSessionModel(db, sessionId);
  if (model === undefined || isExternalModel(model)) return null;
  const events = await readEvents(db, sessionId);
  const state = foldEvents(events);
  const file = state.planPath;
  if (!file || fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined) return null;
  const latest = state.planId ? await latestPlanContent(db, state.planId) : null;
  const content = latest ?? planFromLog(events, file);
  if (content === null) return null;
  writePlanFile(state.workspace, file, content);
  const source = latest !== null ? "version" : "log";
  await appendEvents(db, sessionId, [
    {
      type: "notice",
      payload: {
        level: "info",
        text: `The plan file was missing and was restored from the ${source === "version" ? "latest plan version" : "session log"}: ${file}`,
      },
    },
  ]);
  return source;
}
