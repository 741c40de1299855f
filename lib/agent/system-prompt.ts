import type { AgentDef, PermissionMode } from "../permission";
import type { SandboxInfo } from "../tools/types";

export function systemPrompt(input: {
  agent: AgentDef;
  mode: PermissionMode;
  workspace: string;
  sandbox: SandboxInfo;
  isSubagent: boolean;
}): string {
  const lines = [
    `You are a coding agent working in the folder ${input.workspace}. Paths may be relative to it.`,
    `Agent: ${input.agent.name} — ${input.agent.description}`,
    "Every tool call passes a permission gate: a denied call returns an error you should read and adapt to; a call may wait for the user's approval.",
    `Permission mode: ${input.mode}.`,
  ];
  if (input.agent.readOnly) lines.push("You are read-only: explore and report; do not try to change files.");
  if (input.isSubagent)
    lines.push(
      "You are a subagent: finish with a concise summary of what you found; you cannot ask the user or start subagents.",
    );
  lines.push(
    input.sandbox.available ? "Shell commands run in an OS sandbox." : "No OS sandbox is available on this machine.",
  );
  return lines.join("\n");
}
