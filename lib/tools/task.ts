import { z } from "zod";
import { findSubagent } from "../db/teams/subagents";
import { appendEvents } from "../session/append-events";
import { createSession } from "../session/create-session";
import { getSession } from "../session/get-session";
import { readEvents } from "../db/session-log/read-events";
import { newId } from "../id";
import { ToolError, ToolSuspended, type ToolDef } from "./types";

const input = z.object({
  agent: z.string().min(1).max(60),
  prompt: z.string().min(1).max(20_000),
  /** Only for the scripted model: the child's own script. */
  script: z.array(z.unknown()).optional(),
});

const READ_ONLY_AGENTS = new Set(["explore"]);

/** The child's final answer: its last assistant text. */
async function summary(db: Parameters<typeof readEvents>[0], childId: string): Promise<string> {
  const events = await readEvents(db, childId);
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.type === "message.assistant" && e.payload.text.trim()) return e.payload.text;
  }
  return "(the subagent returned no text)";
}

export const taskTool: ToolDef<z.infer<typeof input>> = {
  name: "task",
  description:
    'Start a subagent with its own context on a focused job and get its summary back. agent: "explore" (read-only research) or "general" (can change files). Subagents cannot start subagents.',
  permission: "task",
  rerun: "resume",
  inputSchema: input,
  async asks(args) {
    return [
      {
        permission: "task",
        patterns: [args.agent],
        always: [args.agent],
        readOnly: READ_ONLY_AGENTS.has(args.agent),
        metadata: { agent: args.agent, prompt: args.prompt },
      },
    ];
  },
  async execute(args, ctx) {
    const rt = ctx.runtime;
    if (!rt) throw new ToolError("task needs a session");
    if (rt.isSubagent) throw new ToolError("A subagent cannot start subagents.");
    if (!["explore", "general"].includes(args.agent))
      throw new ToolError(`Unknown subagent "${args.agent}": use explore or general.`);
    let childId = await findSubagent(rt.db, ctx.sessionId, ctx.callId);
    if (!childId) {
      const child = await createSession(rt.db, {
        title: `${args.agent}: ${args.prompt.slice(0, 60)}`,
        workspace: ctx.workspace,
        agent: args.agent,
        model: rt.model,
        // Subagents start outside plan mode; read-only agents are held read-only by their rules and the sandbox.
        mode: ctx.mode === "plan" ? "default" : ctx.mode,
        parentId: ctx.sessionId,
        parentCallId: ctx.callId,
        script: rt.model === "scripted" ? (args.script ?? []) : undefined,
      });
      childId = child.id;
      await appendEvents(rt.db, childId, [
        { type: "message.user", payload: { text: args.prompt } },
        { type: "turn.started", payload: { turnId: newId("trn") } },
      ]);
      await appendEvents(rt.db, ctx.sessionId, [
        { type: "tool.waiting", payload: { callId: ctx.callId, on: childId } },
      ]);
      await rt.drive(childId);
    }
    const { state } = await getSession(rt.db, childId);
    if (state.openTurnId || state.pendingPermissions.length > 0) throw new ToolSuspended();
    if (state.interrupted) throw new ToolError(`The subagent ${childId} was interrupted.`);
    return { output: await summary(rt.db, childId), metadata: { sessionId: childId } };
  },
};
