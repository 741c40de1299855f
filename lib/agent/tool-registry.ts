import type { JSONSchema7, LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import { z } from "zod";
import { disabled, type Ruleset } from "../permission";
import { bashTool } from "../tools/bash";
import { fileTools } from "../tools/file-tools";
import { questionTool } from "../tools/question";
import { taskTool } from "../tools/task";
import { todoWriteTool } from "../tools/todo-write";
import { enterPlanModeTool } from "../tools/enter-plan-mode";
import { exitPlanModeTool } from "../tools/exit-plan-mode";
import { spawnTeammateTool } from "../tools/spawn-teammate";
import { sendMessageTool } from "../tools/send-message";
import type { ToolDef } from "../tools/types";

// Every tool the model can be offered. The list is stable across modes (cache-friendly); the gate decides per call.
const ALL: ToolDef<never>[] = [
  ...fileTools,
  bashTool,
  questionTool,
  taskTool,
  todoWriteTool,
  enterPlanModeTool,
  exitPlanModeTool,
  spawnTeammateTool,
  sendMessageTool,
] as unknown as ToolDef<never>[];
// exit_plan_mode stays in every tool list (a stable list keeps the prompt cache warm); it fails outside plan mode.
const ALWAYS_OFFERED = new Set(["exit_plan_mode"]);
const BY_NAME = new Map(ALL.map((t) => [t.name, t]));

// JSON Schemas are computed once per tool: converting zod schemas on every request cost milliseconds per step.
// Inputs are validated against the zod schema when the gate runs the call.
const schemas = new Map<string, JSONSchema7>();
function schemaOf(t: ToolDef<never>): JSONSchema7 {
  let s = schemas.get(t.name);
  if (!s) {
    s = z.toJSONSchema(t.inputSchema as z.ZodType, { io: "input", unrepresentable: "any" }) as JSONSchema7;
    schemas.set(t.name, s);
  }
  return s;
}

export function findTool(name: string): ToolDef<unknown> | undefined {
  return BY_NAME.get(name) as ToolDef<unknown> | undefined;
}

const TEAM_TOOLS = new Set(["spawn_teammate", "send_message"]);
const toolSets = new WeakMap<Ruleset, LanguageModelV3FunctionTool[]>();
const teamToolSets = new WeakMap<Ruleset, LanguageModelV3FunctionTool[]>();

/** The tools offered on a request: every tool the rules do not deny outright (seed 000's first layer). */
export function modelTools(rules: Ruleset, inTeam = false): LanguageModelV3FunctionTool[] {
  const sets = inTeam ? teamToolSets : toolSets;
  const cached = sets.get(rules);
  if (cached) return cached;
  // Judged by each tool's permission key (enter_plan_mode → plan_enter; edit, write, apply_patch → edit).
  const off = disabled([...new Set(ALL.map((t) => t.permission))], rules);
  const set: LanguageModelV3FunctionTool[] = [];
  for (const t of ALL) {
    if (off.has(t.permission) && !ALWAYS_OFFERED.has(t.name)) continue;
    // Team tools are offered only to team members (a session joins a team once, so the list stays stable).
    if (TEAM_TOOLS.has(t.name) && !inTeam) continue;
    set.push({ type: "function", name: t.name, description: t.description, inputSchema: schemaOf(t) });
  }
  sets.set(rules, set);
  return set;
}
