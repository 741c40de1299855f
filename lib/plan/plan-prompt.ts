import type { SessionState } from "../session/log/fold";

const FULL = (file: string) =>
  [
    "PLAN MODE ACTIVE.",
    "You are planning, not changing: read, search, list and run read-only shell commands (the filesystem is read-only for them);",
    "ask the user with the question tool when a choice is theirs; delegate research to an explore subagent if useful.",
    `Plan file: ${file}`,
    "Write the plan there as markdown starting with a heading: the goal, the steps (numbered), the files to change, the risks and how you will verify.",
    "It is the only file you may write. When the plan is complete call exit_plan_mode; the user approves it, rejects it with feedback, or asks to talk.",
  ].join("\n");
const SHORT = (file: string) =>
  `PLAN MODE ACTIVE: change nothing but the plan file ${file}; finish with exit_plan_mode.`;
const LINE = (file: string) => `Plan mode is on (plan file: ${file}).`;

/** The system prompt's plan-mode section: a full one on entry, a short one every few steps, a line otherwise. */
export function planModeSection(state: SessionState): string | null {
  if (state.mode !== "plan") return null;
  const file = state.planPath ?? "(not assigned yet)";
  const n = state.steps?.inPlan ?? 0;
  if (n === 0) return FULL(file);
  return n % 3 === 0 ? SHORT(file) : LINE(file);
}

/**
 * One short notice when the user switched modes since the model's last request, and only if that request
 * described the other state (the model already knows about switches its own tools or reviews made).
 */
export function modeSwitchNotice(state: SessionState): string | null {
  const lastDescribed = state.steps?.described;
  const lastCause = state.steps?.causeSince;
  if (!lastDescribed || lastDescribed === state.mode) return null;
  if (lastCause !== "user" && lastCause !== "command") return null;
  const wasPlan = lastDescribed === "plan";
  const isPlan = state.mode === "plan";
  if (wasPlan === isPlan) return `The user switched the permission mode to ${state.mode}.`;
  return isPlan
    ? `The user turned plan mode on: stop changing files; plan in ${state.planPath ?? "your plan file"} and call exit_plan_mode when done.`
    : `The user turned plan mode off (permission mode: ${state.mode}). You may act again; there is no plan review pending.`;
}
