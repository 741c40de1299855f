import { describe, expect, it } from "vitest";
import { nativeAgents } from "./agents";
import { disabled } from "./disabled";
import type { Action, Rule, Ruleset } from "./types";

const r = (permission: string, pattern: string, action: Action): Rule => ({ permission, pattern, action });
const agents = nativeAgents({ plansDir: ".plangate/plans", home: "/home/u" });
const TOOLS = [
  "read",
  "edit",
  "write",
  "apply_patch",
  "bash",
  "task",
  "todo_write",
  "question",
  "plan_enter",
  "plan_exit",
];

describe("disabled", () => {
  it.each<[string, Ruleset, string[]]>([
    ["empty ruleset hides nothing", [], []],
    ["all-deny hides every tool", [r("*", "*", "deny")], TOOLS],
    [
      "edit deny hides edit, write and apply_patch",
      [r("*", "*", "allow"), r("edit", "*", "deny")],
      ["edit", "write", "apply_patch"],
    ],
    ["later path allow keeps edit tools", [r("edit", "*", "deny"), r("edit", "docs/*", "allow")], []],
    ["later non-* deny does not hide", [r("bash", "*", "allow"), r("bash", "rm *", "deny")], []],
    ["blanket ask does not hide", [r("bash", "*", "ask")], []],
    ["blanket allow after deny restores", [r("bash", "*", "deny"), r("*", "*", "allow")], []],
    ["wildcard permission deny", [r("*", "*", "allow"), r("plan_*", "*", "deny")], ["plan_enter", "plan_exit"]],
    ["rules for other permissions are ignored", [r("bash", "*", "deny"), r("read", "*", "allow")], ["bash"]],
  ])("%s", (_name, ruleset, want) => {
    expect([...disabled(TOOLS, ruleset)].sort()).toEqual([...want].sort());
  });

  it.each<[keyof typeof agents, string[]]>([
    ["build", ["plan_exit"]],
    ["plan", ["plan_enter"]],
    ["general", ["todo_write", "question", "plan_enter", "plan_exit"]],
    ["explore", ["edit", "write", "apply_patch", "task", "todo_write", "question", "plan_enter", "plan_exit"]],
  ])("native agent %s hides %j", (name, want) => {
    expect([...disabled(TOOLS, agents[name].permission)].sort()).toEqual([...want].sort());
  });
});
