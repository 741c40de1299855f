import { describe, expect, it } from "vitest";
import { decide, evaluate, fromConfig, literalView, merge, type CallAsk, type Rule, type Ruleset } from ".";
import { judgeCall, onceKey, type JudgeInput } from "./judge-call";

const base = fromConfig({ "*": "allow", bash: "ask", edit: "ask" });
const bash = (patterns: string[], extra: Partial<CallAsk> = {}): CallAsk => ({
  permission: "bash",
  patterns,
  readOnly: false,
  ...extra,
});
const grant = (pattern: string, exact = false): Rule => ({
  permission: "bash",
  pattern,
  action: "allow",
  ...(exact ? { exact: true } : {}),
});

function judge(asks: CallAsk[], over: Partial<JudgeInput> = {}) {
  return judgeCall({
    asks,
    agentRules: base,
    grantRules: [],
    mode: "default",
    gates: { autoGateOpen: true, bypassEnabled: true },
    allowedOnce: new Set(),
    ...over,
  });
}

describe("judgeCall", () => {
  it.each<[string, CallAsk, Rule[], "allow" | "ask"]>([
    ["a prefix grant allows a plain command", bash(["mkdir a"]), [grant("mkdir *")], "allow"],
    [
      "a prefix grant does not allow a command with a redirection",
      bash(["mkdir a >x"], { exactOnly: ["mkdir a >x"] }),
      [grant("mkdir *")],
      "ask",
    ],
    [
      "an exact grant allows exactly its text",
      bash(["mkdir a >x"], { exactOnly: ["mkdir a >x"] }),
      [grant("mkdir a >x", true)],
      "allow",
    ],
    ["an exact grant with a * matches only itself", bash(["rm important.log"]), [grant("rm *.log", true)], "ask"],
    [
      "the blanket * still allows everything",
      bash(["mkdir a >x"], { exactOnly: ["mkdir a >x"] }),
      [grant("*")],
      "allow",
    ],
  ])("%s", (_name, ask, grants, expected) => {
    expect(judge([ask], { grantRules: grants }).kind).toBe(expected);
  });

  it("a config prefix rule that allows does not cover an exact-only pattern, a config deny still denies it", () => {
    const rules = merge(base, fromConfig({ bash: { "ls *": "allow", "rm *": "deny" } }));
    expect(judge([bash(["ls >out"], { exactOnly: ["ls >out"] })], { agentRules: rules }).kind).toBe("ask");
    expect(judge([bash(["rm -rf x >out"], { exactOnly: ["rm -rf x >out"] })], { agentRules: rules }).kind).toBe("deny");
  });

  it.each<[string, Partial<JudgeInput>, boolean]>([
    ["allowed once by the person", { allowedOnce: new Set([onceKey("bash", "make")]) }, true],
    [
      "allowed by an exact saved rule (what it runs may have changed since)",
      { grantRules: [grant("make", true)] },
      false,
    ],
    ["allowed by bypassPermissions", { mode: "bypassPermissions" }, true],
    ["allowed by a prefix rule", { grantRules: [grant("make *")] }, false],
    ["allowed by a config rule", { agentRules: merge(base, fromConfig({ bash: { make: "allow" } })) }, false],
    ["allowed by auto", { mode: "auto" }, false],
  ])("%s: asWritten=%s", (_name, over, asWritten) => {
    const j = judge([bash(["make"])], over);
    expect(j.kind).toBe("allow");
    if (j.kind === "allow") expect(j.asWritten).toBe(asWritten);
  });

  it("a control file asks even when a grant, acceptEdits or auto would allow it", () => {
    const edit: CallAsk = {
      permission: "edit",
      patterns: [".git/config"],
      readOnly: false,
      insideWorkspace: true,
      control: [".git/config"],
    };
    const grants: Rule[] = [{ permission: "edit", pattern: "*", action: "allow" }];
    for (const mode of ["default", "acceptEdits", "auto"] as const)
      expect(judge([edit], { mode, grantRules: grants }).kind).toBe("ask");
    expect(judge([edit], { mode: "bypassPermissions" }).kind).toBe("allow");
    expect(judge([edit], { mode: "plan" }).kind).toBe("deny");
  });
});

describe("the gate's rules and grants", () => {
  // The gate never merges agent rules with grants: a matching grant, else the agent's match. Checked against
  // the merged ruleset's last-match-wins answer, including literal views and modes.
  const agent = fromConfig({
    "*": "allow",
    bash: { "*": "ask", "git *": "allow", "rm *": "deny", "make test": "allow" },
    edit: { "*": "ask", "docs/*": "allow" },
  });
  const grants: Rule[] = [
    grant("npm run *"),
    grant("make build", true),
    { permission: "edit", pattern: "src/*", action: "allow" },
    grant("rm tmp/*"),
  ];
  const patterns = [
    "git status",
    "git push >log",
    "rm -rf /",
    "rm tmp/a",
    "npm run lint",
    "npm run x >y",
    "make build",
    "make test",
    "ls",
    "src/a.ts",
    "docs/b.md",
    "lib/c.ts",
  ];
  it.each(["default", "plan", "acceptEdits", "auto"] as const)(
    "equals judging the merged ruleset (%s mode)",
    (mode) => {
      for (const pattern of patterns) {
        const permission = /\.(ts|md)$/.test(pattern) ? "edit" : "bash";
        const literal = pattern.includes(">");
        const ask: CallAsk = {
          permission,
          patterns: [pattern],
          readOnly: false,
          insideWorkspace: true,
          ...(literal ? { exactOnly: [pattern] } : {}),
        };
        const split = judge([ask], { agentRules: agent, grantRules: grants, mode });
        // The reference: an agent deny stands (grants never lift one), else decide on the merged rules.
        const view = (r: Ruleset) => (literal ? literalView(r) : r);
        const gates = { autoGateOpen: true, bypassEnabled: true };
        const reference =
          evaluate(permission, pattern, agent) === "deny"
            ? "deny"
            : decide({
                permission,
                pattern,
                rulesets: [view(agent), view(grants)],
                mode,
                gates,
                readOnly: false,
                insideWorkspace: true,
              }).action;
        expect([pattern, split.kind]).toEqual([pattern, reference]);
      }
    },
  );
});
