import { describe, expect, it } from "vitest";
import { heldRulesOf, markHeld } from "./held-asks";
import type { PermissionAsk } from "../../session/log/tool-types";

const rules = [
  { pattern: "migrations/*", reviewers: ["olive@example.com"] },
  { pattern: "**/*.sql", reviewers: ["dba@example.com"] },
];
const edit = (paths: string[], control = paths): PermissionAsk => ({
  permission: "edit",
  patterns: paths,
  always: paths,
  readOnly: false,
  control,
  metadata: {},
});

describe("markHeld: which asks touch a held path, and whose", () => {
  it.each<[string, PermissionAsk, string[] | undefined, string[]]>([
    ["a write outside every held pattern", edit(["src/a.ts"], []), undefined, []],
    ["a write under one pattern", edit(["migrations/1.rb"]), ["migrations/1.rb"], ["migrations/*"]],
    [
      "a write under two patterns (both owners)",
      edit(["migrations/1.sql"]),
      ["migrations/1.sql"],
      ["migrations/*", "**/*.sql"],
    ],
    ["a control file that is not held", edit([".git/hooks/x"]), undefined, []],
    [
      "a shell command a loose held pattern makes ask",
      {
        permission: "bash",
        patterns: ["echo > a.sql"],
        always: [],
        readOnly: false,
        control: ["echo > a.sql"],
        metadata: { held: ["**/*.sql"] },
      },
      ["echo > a.sql"],
      ["**/*.sql"],
    ],
    [
      "a read-only shell command",
      { permission: "bash", patterns: ["ls"], always: [], readOnly: true, metadata: {} },
      undefined,
      [],
    ],
  ])("%s", (_name, ask, held, patterns) => {
    const out = markHeld(ask, rules);
    expect(out.held).toEqual(held);
    expect(((out.metadata?.heldFor as { pattern: string }[] | undefined) ?? []).map((r) => r.pattern)).toEqual(
      patterns,
    );
  });

  it("with no held rules an ask is returned as it is", () => {
    const ask = edit(["migrations/1.sql"]);
    expect(markHeld(ask, [])).toBe(ask);
  });
});

describe("heldRulesOf", () => {
  const policy = [{ pattern: "migrations/*", reviewers: ["olive@example.com"] }];
  it("a pattern held before its reviewers were recorded belongs to nobody (an owner's override releases it)", () => {
    expect(heldRulesOf({ heldPaths: ["migrations/*", "docs/"], heldFor: [rules[0]!] }, policy)).toEqual([
      rules[0],
      { pattern: "docs/", reviewers: [] },
    ]);
    expect(heldRulesOf({}, [])).toEqual([]);
  });

  it.each([
    ["never approved: every pattern of the policy, for its owners", {}, policy],
    ["an approval that left nothing held", { planApproved: true as const }, []],
    [
      "an approval that left a pattern held",
      { planApproved: true as const, heldFor: rules, heldPaths: ["migrations/*"] },
      rules,
    ],
    ["a subagent before an approval of its own (its parent's holds bind it)", { parentId: "ses_parent" }, []],
  ])("%s", (_name, state, expected) => {
    expect(heldRulesOf(state, policy)).toEqual(expected);
  });
});
