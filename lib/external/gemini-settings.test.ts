import { describe, expect, it } from "vitest";
import { planFileIn } from "./gemini-hook";
import { geminiPlanHook, geminiTrusts, withGeminiHooks } from "./gemini-settings";

const ours = "node '/opt/p/plangate.mjs' hook gemini --url 'http://127.0.0.1:3000'";
const theirs = { BeforeTool: [{ matcher: "write_file", hooks: [{ type: "command", command: "lint-it" }] }] };

describe("Gemini CLI's settings and trust", () => {
  it("adds Plangate's hooks beside others, replaces them on a second connect, takes only them out", () => {
    const once = withGeminiHooks(theirs, { command: ours, timeoutMs: 3_600_000, asks: true });
    expect(once.BeforeTool.map((g) => g.matcher)).toEqual([
      "write_file",
      "^exit_plan_mode$",
      "^(write_file|replace|run_shell_command)$",
    ]);
    expect(once.AfterTool.map((g) => g.matcher)).toEqual(["^exit_plan_mode$"]);
    expect(geminiPlanHook(once)?.timeout).toBe(3_600_000);
    const twice = withGeminiHooks(once, { command: ours, timeoutMs: 60_000, asks: false });
    expect(twice.BeforeTool).toHaveLength(2);
    expect(withGeminiHooks(twice, { command: ours, timeoutMs: 1, asks: false, remove: true })).toEqual({
      BeforeTool: theirs.BeforeTool,
      AfterTool: [],
    });
  });

  it.each<[string, Record<string, string>, boolean | null]>([
    ["no rule", {}, null],
    ["an ancestor trusted", { "/home/a": "TRUST_FOLDER" }, true],
    ["its parent through TRUST_PARENT", { "/home/a/other": "TRUST_PARENT" }, true],
    [
      "the folder itself refused under a trusted ancestor",
      { "/home/a": "TRUST_FOLDER", "/home/a/p": "DO_NOT_TRUST" },
      false,
    ],
    ["the folder trusted under a refused ancestor", { "/home": "DO_NOT_TRUST", "/home/a/p": "TRUST_FOLDER" }, true],
    ["a name that only starts the same", { "/home/a/pro": "TRUST_FOLDER" }, null],
    ["an unknown level", { "/home/a": "TRUSTED" }, null],
  ])("trust: %s", (_, rules, trusted) => expect(geminiTrusts(rules, "/home/a/p")).toBe(trusted));

  it.each<[string, unknown, string | null]>([
    ["a bare name", "plan.md", "/g/plans/plan.md"],
    ["an absolute path inside", "/g/plans/x.md", "/g/plans/x.md"],
    ["a climb out", "../secret.md", null],
    ["an absolute path outside", "/etc/passwd", null],
    ["the folder itself", ".", null],
    ["not a string", 3, null],
  ])("the plan file: %s", (_, name, file) => expect(planFileIn("/g/plans", name)).toBe(file));
});
