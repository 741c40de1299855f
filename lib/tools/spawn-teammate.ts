import { spawnInput, spawnTeammate, type SpawnInput } from "../team/spawn-teammate";
import { AppError } from "../errors";
import { ToolError, type ToolDef } from "./types";

export const spawnTeammateTool: ToolDef<SpawnInput> = {
  name: "spawn_teammate",
  description:
    "Team leads only: start a teammate, its own session in this workspace working on `task`. With requirePlanApproval (default true) it plans read-only and sends its plan to your mailbox; answer with send_message.",
  permission: "spawn_teammate",
  inputSchema: spawnInput as unknown as ToolDef<SpawnInput>["inputSchema"],
  async asks(args) {
    // A teammate that must have its plan approved changes nothing before its lead says so.
    return [
      {
        permission: "spawn_teammate",
        patterns: [args.name],
        always: ["*"],
        readOnly: args.requirePlanApproval,
        metadata: { name: args.name, task: args.task },
      },
    ];
  },
  async execute(args, ctx) {
    const rt = ctx.runtime;
    if (!rt) throw new ToolError("spawn_teammate needs a session");
    if (rt.team?.role !== "lead")
      throw new ToolError("Only a team lead can spawn teammates; this session does not lead a team.");
    try {
      const { sessionId } = await spawnTeammate(rt.db, ctx.sessionId, args, {
        drive: rt.drive,
        startSession: rt.startSession,
      });
      return {
        output: `Teammate ${args.name} started (session ${sessionId}).${args.requirePlanApproval ? " Its plan will arrive in your mailbox for approval." : ""}`,
        metadata: { sessionId },
      };
    } catch (error) {
      if (error instanceof AppError) throw new ToolError(error.message);
      throw error;
    }
  },
};
