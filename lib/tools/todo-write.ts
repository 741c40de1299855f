import { z } from "zod";
import { appendEvents } from "../session/append-events";
import { ToolError, type ToolDef } from "./types";

const todoSchema = z.object({
  content: z.string().min(1).max(500),
  status: z.enum(["pending", "in_progress", "completed", "cancelled"]),
});
const input = z.object({ todos: z.array(todoSchema).max(100) });

export const todoWriteTool: ToolDef<z.infer<typeof input>> = {
  name: "todo_write",
  description:
    "Replace the session's todo list (content + status per item) to track multi-step work. Changes nothing in the workspace.",
  permission: "todo_write",
  rerun: "safe",
  inputSchema: input,
  async asks() {
    return [{ permission: "todo_write", patterns: ["*"], always: ["*"], readOnly: true }];
  },
  async execute({ todos }, ctx) {
    if (!ctx.runtime) throw new ToolError("todo_write needs a session");
    await appendEvents(ctx.runtime.db, ctx.sessionId, [{ type: "todo.updated", payload: { todos } }]);
    const open = todos.filter((t) => t.status === "pending" || t.status === "in_progress").length;
    return { output: `Todo list updated: ${todos.length} items, ${open} open.` };
  },
};
