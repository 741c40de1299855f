import { describe, expect, it } from "vitest";
import { nativeAgents } from "../permission";
import { modelTools } from "./tool-registry";

const agents = nativeAgents({ plansDir: ".plangate/plans", workspace: "/w" });
const names = (agent: keyof typeof agents) => modelTools(agents[agent].permission).map((t) => t.name);

describe("modelTools (the first layer of the gate)", () => {
  it.each<[keyof typeof agents, string[], string[]]>([
    [
      "build",
      ["read", "edit", "write", "apply_patch", "bash", "task", "question", "enter_plan_mode", "exit_plan_mode"],
      [],
    ],
    ["plan", ["read", "edit", "write", "question", "exit_plan_mode"], ["enter_plan_mode"]],
    [
      "explore",
      ["read", "grep", "glob", "list", "bash", "exit_plan_mode"],
      ["edit", "write", "apply_patch", "task", "todo_write", "question"],
    ],
    ["general", ["read", "edit", "bash", "exit_plan_mode"], ["todo_write", "question", "enter_plan_mode"]],
  ])("%s offers what its rules do not deny outright, and always exit_plan_mode", (agent, present, absent) => {
    const offered = names(agent);
    for (const n of present) expect(offered).toContain(n);
    for (const n of absent) expect(offered).not.toContain(n);
  });

  it("gives every tool a JSON schema and keeps the list stable for the same rules", () => {
    const rules = agents.build.permission;
    expect(modelTools(rules)).toBe(modelTools(rules));
    for (const t of modelTools(rules)) expect(t.inputSchema).toMatchObject({ type: "object" });
  });
});
