import { z } from "zod";
import { sql, type Db } from "../db/client";
import type { SqlRunner } from "../db/sql";
import { stateFromRow } from "../session/projection";
import { AppError } from "../errors";
import { appendEvents } from "../session/append-events";
import { getSession } from "../session/get-session";
import { startSession } from "../agent/start-session";
import { newId } from "../id";

export const spawnInput = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_-]{0,30}$/, "name: a short lowercase name (letters, digits, - and _)"),
    task: z.string().min(1).max(20_000),
    agent: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,40}$/)
      .default("build"),
    requirePlanApproval: z.boolean().default(true),
    script: z.array(z.unknown()).max(1000).optional(),
  })
  .strict();
export type SpawnInput = z.infer<typeof spawnInput>;

/**
 * Starts a teammate: its own session in the lead's workspace. With requirePlanApproval it starts in plan
 * mode and its plan goes to the lead's mailbox; the task is its first message.
 */
export async function spawnTeammate(
  db: Db,
  leadId: string,
  input: SpawnInput,
  drive: (id: string) => Promise<void>,
): Promise<{ sessionId: string }> {
  const { session: lead, state } = await getSession(db, leadId);
  const team = state.team;
  if (team?.role !== "lead") throw new AppError("forbidden", "Only a team lead can spawn teammates.");
  if (await nameTaken(await sql(db), team.id, input.name))
    throw new AppError("conflict", `name: the team already has a member called ${input.name}.`);
  const created = await startSession(db, {
    title: `${input.name} (${lead.title})`,
    workspace: lead.workspace,
    agent: input.agent,
    mode: input.requirePlanApproval ? "plan" : "default",
    model: input.script ? "scripted" : lead.model,
    script: input.script,
  });
  const id = created.session.id;
  await appendEvents(
    db,
    id,
    [
      {
        type: "team.joined",
        payload: {
          teamId: team.id,
          role: "teammate",
          name: input.name,
          leadSessionId: leadId,
          requirePlanApproval: input.requirePlanApproval,
        },
      },
    ],
    {
      also: async (run) => {
        if (await nameTaken(run, team.id, input.name))
          throw new AppError("conflict", `name: the team already has a member called ${input.name}.`);
        await run.execute('UPDATE "Session" SET "teamId" = ?, "role" = ? WHERE "id" = ?', [team.id, "teammate", id]);
      },
    },
  );
  await appendEvents(db, id, [
    { type: "message.user", payload: { text: input.task } },
    { type: "turn.started", payload: { turnId: newId("trn") } },
  ]);
  void drive(id).catch((error: unknown) => console.error(`plangate: teammate ${id} failed`, error));
  return { sessionId: id };
}

async function nameTaken(run: SqlRunner, teamId: string, name: string): Promise<boolean> {
  const rows = await run.query<{ state: string; lastSeq: number }>(
    'SELECT "state", "lastSeq" FROM "Session" WHERE "teamId" = ?',
    [teamId],
  );
  return rows.some((r) => stateFromRow(r).team?.name === name);
}
