import type { Starter } from "../auth/rules/rights";
import { findSessionOwner } from "../db/sessions";
import { z } from "zod";
import type { Conn, Db } from "../db/client";
import { joinTeam, listTeamMembers } from "../db/teams/teams";
import { stateFromRow } from "../session/log/projection";
import { AppError } from "../errors";
import { appendEvents } from "../session/append-events";
import { getSession } from "../session/get-session";
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

export type TeammateSessionInput = {
  title: string;
  workspace: string;
  agent: string;
  mode: "plan" | "default";
  model: string;
  script?: unknown[];
  /** Who started the teammate: who added it, or the lead session's person for the lead's model (review policy: who may not approve its plan). */
  starter?: Starter;
};
/**
 * Creates a validated session (the agent layer's startSession: workspace, agent, model and script checks). Passed
 * in by the caller, which sits above the agent layer this module may not import.
 */
export type StartSession = (db: Db, input: TeammateSessionInput) => Promise<{ session: { id: string } }>;

/**
 * Starts a teammate: its own session in the lead's workspace. With requirePlanApproval it starts in plan
 * mode and its plan goes to the lead's mailbox; the task is its first message.
 */
export async function spawnTeammate(
  db: Db,
  leadId: string,
  input: SpawnInput,
  deps: {
    drive: (id: string) => Promise<void>;
    startSession: StartSession;
    /** Who adds it (a person on the team's page); omitted, the lead's model does, for the lead session's person. */
    starter?: Starter;
  },
): Promise<{ sessionId: string }> {
  const { drive, startSession } = deps;
  const { session: lead, state } = await getSession(db, leadId);
  const team = state.team;
  if (team?.role !== "lead") throw new AppError("forbidden", "Only a team lead can spawn teammates.");
  if (await nameTaken(db, team.id, input.name))
    throw new AppError("conflict", `name: the team already has a member called ${input.name}.`);
  const created = await startSession(db, {
    title: `${input.name} (${lead.title})`,
    workspace: lead.workspace,
    agent: input.agent,
    mode: input.requirePlanApproval ? "plan" : "default",
    model: input.script ? "scripted" : lead.model,
    script: input.script,
    starter: deps.starter ?? { startedBy: (await findSessionOwner(db, leadId))?.startedBy ?? null, agentTokenId: null },
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
        await joinTeam(run, id, team.id, "teammate");
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

async function nameTaken(conn: Conn, teamId: string, name: string): Promise<boolean> {
  const rows = await listTeamMembers(conn, teamId);
  return rows.some((r) => stateFromRow(r).team?.name === name);
}
