import { tool, type ToolSet } from "ai";
import { disabled, type Ruleset } from "../permission";
import { bashTool } from "../tools/bash";
import { fileTools } from "../tools/file-tools";
import { questionTool } from "../tools/question";
import { taskTool } from "../tools/task";
import { todoWriteTool } from "../tools/todo-write";
import type { ToolDef } from "../tools/types";

// Every tool the model can be offered. The list is stable across modes (cache-friendly); the gate decides per call.
const ALL: ToolDef<never>[] = [...fileTools, bashTool, questionTool, taskTool, todoWriteTool] as unknown as ToolDef<never>[];
const BY_NAME = new Map(ALL.map((t) => [t.name, t]));

export function findTool(name: string): ToolDef<unknown> | undefined {
  return BY_NAME.get(name) as ToolDef<unknown> | undefined;
}

export function registerTools(extra: ToolDef<never>[]): void {
  for (const t of extra) {
    if (!BY_NAME.has(t.name)) {
      ALL.push(t);
      BY_NAME.set(t.name, t);
    }
  }
}

/** The AI SDK tool set for a request: every tool the rules do not deny outright (seed 000's first layer). */
export function modelTools(rules: Ruleset): ToolSet {
  const names = ALL.map((t) => t.name);
  const off = disabled(names, rules);
  const set: ToolSet = {};
  for (const t of ALL) {
    if (off.has(t.name)) continue;
    set[t.name] = tool({ description: t.description, inputSchema: t.inputSchema as never });
  }
  return set;
}
