import { describe, expect, it } from "vitest";
import { decide, type DecideInput } from "./decide";
import type { ModeGates, PermissionMode } from "./modes";
import type { Action, Rule, Ruleset } from "./types";

const r = (permission: string, pattern: string, action: Action): Rule => ({ permission, pattern, action });

const rules: Ruleset = [
  r("*", "*", "ask"),
  r("read", "*", "allow"),
  r("bash", "rm *", "deny"),
  r("edit", "secrets/*", "deny"),
  r("edit", "docs/*", "allow"),
];

const OPEN: ModeGates = { autoGateOpen: true, bypassEnabled: true };
const SHUT: ModeGates = { autoGateOpen: false, bypassEnabled: false };

type Case = [
  name: string,
  mode: PermissionMode,
  call: Partial<DecideInput> & { permission: string; pattern: string },
  want: Action,
  reason: RegExp,
];

const base = (mode: PermissionMode, call: Case[2]): DecideInput => ({
  rulesets: [rules],
  mode,
  gates: OPEN,
  readOnly: false,
  ...call,
});

describe("decide", () => {
  it.each<Case>([
    // default: the rules decide
    ["default ask", "default", { permission: "bash", pattern: "ls" }, "ask", /rule \* "\*" → ask/],
    ["default allow", "default", { permission: "edit", pattern: "docs/a.md" }, "allow", /rule edit "docs\/\*"/],
    ["default deny", "default", { permission: "bash", pattern: "rm -rf x" }, "deny", /rule bash "rm \*" → deny/],
    ["no rule at all", "default", { permission: "bash", pattern: "ls", rulesets: [] }, "ask", /no rule matched/],
    [
      "default: read-only bash needs no question",
      "default",
      { permission: "bash", pattern: "ls", readOnly: true },
      "allow",
      /read-only command/,
    ],
    [
      "default: read-only bash still denied by a rule",
      "default",
      { permission: "bash", pattern: "rm x", readOnly: true },
      "deny",
      /rule bash "rm/,
    ],
    [
      "default: a read-only read that asks still asks",
      "default",
      {
        permission: "read",
        pattern: ".env",
        readOnly: true,
        rulesets: [[{ permission: "read", pattern: ".env", action: "ask" }]],
      },
      "ask",
      /rule read/,
    ],
    // plan
    [
      "plan: write denied",
      "plan",
      { permission: "edit", pattern: "docs/a.md" },
      "deny",
      /plan mode: only the plan file/,
    ],
    [
      "plan: plan file allowed",
      "plan",
      { permission: "edit", pattern: ".plangate/plans/p.md", planFile: true },
      "allow",
      /plan mode: writing the plan file/,
    ],
    [
      "plan: plan file under deny stays deny",
      "plan",
      { permission: "edit", pattern: "secrets/p.md", planFile: true },
      "deny",
      /rule edit "secrets/,
    ],
    [
      "plan: read-only keeps allow",
      "plan",
      { permission: "read", pattern: "a.ts", readOnly: true },
      "allow",
      /rule read/,
    ],
    [
      "plan: read-only bash answers an ask",
      "plan",
      { permission: "bash", pattern: "ls", readOnly: true },
      "allow",
      /read-only command/,
    ],
    [
      "plan: read-only keeps deny",
      "plan",
      { permission: "bash", pattern: "rm x", readOnly: true },
      "deny",
      /rule bash "rm/,
    ],
    ["plan: mutating bash denied", "plan", { permission: "bash", pattern: "touch x" }, "deny", /plan mode/],
    // acceptEdits
    [
      "acceptEdits: edit in workspace",
      "acceptEdits",
      { permission: "edit", pattern: "src/a.ts", insideWorkspace: true },
      "allow",
      /acceptEdits/,
    ],
    [
      "acceptEdits: edit outside workspace",
      "acceptEdits",
      { permission: "edit", pattern: "/etc/x", insideWorkspace: false },
      "ask",
      /outside the workspace: only a person/,
    ],
    ["acceptEdits: workspace unknown", "acceptEdits", { permission: "edit", pattern: "src/a.ts" }, "ask", /rule \*/],
    [
      "acceptEdits: denied edit stays",
      "acceptEdits",
      { permission: "edit", pattern: "secrets/k", insideWorkspace: true },
      "deny",
      /rule edit "secrets/,
    ],
    [
      "acceptEdits: bash still asks",
      "acceptEdits",
      { permission: "bash", pattern: "ls", insideWorkspace: true },
      "ask",
      /rule \*/,
    ],
    // auto
    ["auto: ask → allow", "auto", { permission: "bash", pattern: "ls" }, "allow", /auto mode/],
    ["auto: gate closed", "auto", { permission: "bash", pattern: "ls", gates: SHUT }, "ask", /auto mode gate closed/],
    ["auto: doom_loop asks", "auto", { permission: "doom_loop", pattern: "*" }, "ask", /rule \*/],
    ["auto: deny stays", "auto", { permission: "bash", pattern: "rm x" }, "deny", /rule bash/],
    ["auto: allow stays", "auto", { permission: "read", pattern: "x" }, "allow", /rule read/],
    // bypassPermissions
    [
      "bypass: ask → allow",
      "bypassPermissions",
      { permission: "edit", pattern: "src/a.ts" },
      "allow",
      /bypassPermissions mode/,
    ],
    [
      "bypass: not enabled",
      "bypassPermissions",
      { permission: "edit", pattern: "src/a.ts", gates: SHUT },
      "ask",
      /not enabled/,
    ],
    ["bypass: doom_loop asks", "bypassPermissions", { permission: "doom_loop", pattern: "*" }, "ask", /rule \*/],
    [
      "bypass: deny stays",
      "bypassPermissions",
      { permission: "edit", pattern: "secrets/a" },
      "deny",
      /rule edit "secrets/,
    ],
    [
      "bypass: no rule still allowed",
      "bypassPermissions",
      { permission: "x", pattern: "y", rulesets: [] },
      "allow",
      /bypassPermissions/,
    ],
  ])("%s", (_name, mode, call, want, reason) => {
    const d = decide(base(mode, call));
    expect(d.action).toBe(want);
    expect(d.reason).toMatch(reason);
  });

  it("reports the rule that matched, even when a mode changed the action", () => {
    expect(decide(base("auto", { permission: "bash", pattern: "ls" })).rule).toBe(rules[0]);
    expect(decide(base("default", { permission: "bash", pattern: "ls", rulesets: [] })).rule).toBeUndefined();
  });
});
