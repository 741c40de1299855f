import { describe, expect, it } from "vitest";
import {
  type Approver,
  canAdvance,
  heldFolders,
  heldPatterns,
  heldRules,
  releasesHeld,
  isHeld,
  DEFAULT_POLICY,
  judgePolicy,
  parseOwners,
  patternMatches,
  type ReviewPolicy,
} from "./review-policy";

const alice: Approver = { by: "person", userId: "u-alice", name: "Alice", email: "alice@example.com" };
const bo: Approver = { by: "person", userId: "u-bo", name: "Bo", email: "Bo@Example.com" };
const dana: Approver = { by: "person", userId: "u-dana", name: "Dana", email: "dana@example.com" };
const operator: Approver = { by: "operator" };

describe("patternMatches: gitignore-style", () => {
  it.each([
    ["prisma/migrations/*", "prisma/migrations/x.sql", true],
    ["prisma/migrations/*", "prisma/migrations/2024/x.sql", false],
    ["prisma/migrations/**", "prisma/migrations/2024/x.sql", true],
    ["prisma/migrations/", "prisma/migrations/2024/x.sql", true],
    ["prisma/migrations", "prisma/migrations/x.sql", true],
    ["/prisma/*", "prisma/schema.prisma", true],
    ["*.sql", "db/deep/x.sql", true],
    ["*.sql", "db/deep/x.sqlite", false],
    ["config/*.yml", "config/prod.yml", true],
    ["config/*.yml", "other/config/prod.yml", false],
    ["**/secrets/**", "a/b/secrets/key.pem", true],
    ["src", "srcs/a.ts", false],
    [".github/workflows/*", ".github/workflows/ci.yml", true],
    ["", "a.ts", false],
  ])("%s ~ %s: %s", (pattern, file, out) => expect(patternMatches(pattern, file)).toBe(out));
});

describe("parseOwners: CODEOWNERS syntax", () => {
  it("reads patterns and owners, comments and teams, and skips lines with no owner", () => {
    expect(
      parseOwners(
        "# owners\n*.sql  DBA@example.com @db\nprisma/migrations/ alice@example.com # the schema\nlonely\n\n",
      ),
    ).toEqual([
      { pattern: "*.sql", owners: ["dba@example.com", "team:db"] },
      { pattern: "prisma/migrations/", owners: ["alice@example.com"] },
    ]);
  });
});

const twoPeople: ReviewPolicy = { ...DEFAULT_POLICY, approvals: 2 };
const dbRule: ReviewPolicy = {
  ...DEFAULT_POLICY,
  paths: [{ patterns: ["prisma/migrations/*"], reviewers: ["alice@example.com", "team:db"], approvals: 1 }],
  teams: { db: ["dana@example.com"] },
};
const noSelf: ReviewPolicy = { ...DEFAULT_POLICY, allowSelfApproval: false };

describe("judgePolicy", () => {
  const cases: [string, Parameters<typeof judgePolicy>[0], boolean, string][] = [
    [
      "the default: one approval",
      { policy: DEFAULT_POLICY, files: [], approvals: [bo], starter: null },
      true,
      "Approved by Bo",
    ],
    [
      "the default, nobody yet",
      { policy: DEFAULT_POLICY, files: [], approvals: [], starter: null },
      false,
      "0 of 1 approval",
    ],
    [
      "the operator counts for a plain one-approval rule",
      { policy: DEFAULT_POLICY, files: [], approvals: [operator], starter: null },
      true,
      "Approved by operator",
    ],
    [
      "two approvals: the first leaves it pending",
      { policy: twoPeople, files: [], approvals: [bo], starter: null },
      false,
      "1 of 2 approvals",
    ],
    [
      "two approvals: one person twice is one",
      { policy: twoPeople, files: [], approvals: [bo, bo], starter: null },
      false,
      "1 of 2 approvals",
    ],
    [
      "two approvals: the operator is nobody by name",
      { policy: twoPeople, files: [], approvals: [bo, operator], starter: null },
      false,
      "1 of 2 approvals",
    ],
    [
      "two approvals: two people",
      { policy: twoPeople, files: [], approvals: [bo, alice], starter: null },
      true,
      "Approved by Bo, Alice",
    ],
    [
      "a path rule: a non-owner's approval",
      { policy: dbRule, files: ["prisma/migrations/x.sql"], approvals: [bo], starter: null },
      false,
      "1 of 1 approval · needs alice@example.com or team db",
    ],
    [
      "a path rule: a named owner",
      { policy: dbRule, files: ["prisma/migrations/x.sql"], approvals: [alice], starter: null },
      true,
      "Approved by Alice",
    ],
    [
      "a path rule: a team member",
      { policy: dbRule, files: ["prisma/migrations/x.sql"], approvals: [dana], starter: null },
      true,
      "Approved by Dana",
    ],
    [
      "a path rule: the operator is not a named reviewer",
      { policy: dbRule, files: ["prisma/migrations/x.sql"], approvals: [operator], starter: null },
      false,
      "1 of 1 approval · needs alice@example.com or team db",
    ],
    [
      "a path rule no file matches: the count alone",
      { policy: dbRule, files: ["src/a.ts"], approvals: [bo], starter: null },
      true,
      "Approved by Bo",
    ],
    [
      "self-approval off: the starter counts for nothing",
      { policy: noSelf, files: [], approvals: [bo], starter: "u-bo" },
      false,
      "0 of 1 approval",
    ],
    [
      "self-approval off: someone else",
      { policy: noSelf, files: [], approvals: [bo, alice], starter: "u-bo" },
      true,
      "Approved by Alice",
    ],
    [
      "self-approval on: the starter counts",
      { policy: DEFAULT_POLICY, files: [], approvals: [bo], starter: "u-bo" },
      true,
      "Approved by Bo",
    ],
    [
      "repository owners add a requirement",
      {
        policy: DEFAULT_POLICY,
        files: ["db/x.sql"],
        approvals: [bo],
        starter: null,
        owners: [{ pattern: "*.sql", owners: ["dana@example.com"] }],
      },
      false,
      "1 of 1 approval · needs dana@example.com",
    ],
    [
      "every matching owners line adds its owners (a union)",
      {
        policy: DEFAULT_POLICY,
        files: ["db/x.sql"],
        approvals: [alice],
        starter: null,
        owners: [
          { pattern: "*.sql", owners: ["dana@example.com"] },
          { pattern: "db/", owners: ["alice@example.com"] },
        ],
      },
      true,
      "Approved by Alice",
    ],
  ];
  it.each(cases)("%s", (_, input, met, summary) => {
    const verdict = judgePolicy(input);
    expect(verdict.met).toBe(met);
    expect(verdict.summary).toBe(summary);
  });

  it("one approval counts toward every rule it meets, and each rule says which files brought it in", () => {
    const policy: ReviewPolicy = {
      ...dbRule,
      approvals: 2,
      paths: [...dbRule.paths, { patterns: ["config/*.yml"], reviewers: ["alice@example.com"], approvals: 1 }],
    };
    const files = ["prisma/migrations/x.sql", "config/prod.yml", "src/a.ts"];
    const first = judgePolicy({ policy, files, approvals: [alice], starter: null });
    expect(first.requirements.map((r) => [r.kind, r.files, r.met])).toEqual([
      ["approvals", [], false],
      ["path", ["prisma/migrations/x.sql"], true],
      ["path", ["config/prod.yml"], true],
    ]);
    expect(first.summary).toBe("1 of 2 approvals");
    expect(judgePolicy({ policy, files, approvals: [alice, bo], starter: null }).met).toBe(true);
  });

  it("a rule needing two of a team says how many more", () => {
    const policy: ReviewPolicy = {
      ...DEFAULT_POLICY,
      paths: [{ patterns: ["deploy/**"], reviewers: ["team:ops"], approvals: 2 }],
      teams: { ops: ["alice@example.com", "dana@example.com"] },
    };
    const v = judgePolicy({ policy, files: ["deploy/prod/app.yml"], approvals: [alice], starter: null });
    expect(v.summary).toBe("1 of 1 approval · needs 1 more of team ops");
    expect(judgePolicy({ policy, files: ["deploy/prod/app.yml"], approvals: [alice, dana], starter: null }).met).toBe(
      true,
    );
  });
});

describe("canAdvance: whose approval would move a review on", () => {
  const files = ["prisma/migrations/x.sql"];
  it.each([
    ["anyone, on the default policy", { policy: DEFAULT_POLICY, files: [], approvals: [], starter: null }, bo, true],
    ["not someone who already approved", { policy: twoPeople, files: [], approvals: [bo], starter: null }, bo, false],
    [
      "a second person, for two approvals",
      { policy: twoPeople, files: [], approvals: [bo], starter: null },
      alice,
      true,
    ],
    [
      "not the starter with self-approval off",
      { policy: noSelf, files: [], approvals: [], starter: "u-bo" },
      bo,
      false,
    ],
    [
      "a team member, for a path rule the count already met",
      { policy: dbRule, files, approvals: [bo], starter: null },
      dana,
      true,
    ],
    [
      "not a non-owner once the count is met",
      { policy: dbRule, files, approvals: [bo], starter: null },
      alice.by === "person" ? { ...alice, userId: "u-x", email: "x@example.com" } : alice,
      false,
    ],
  ] as [string, Parameters<typeof judgePolicy>[0], Approver, boolean][])("%s", (_, input, me, out) =>
    expect(canAdvance(input, me)).toBe(out),
  );
});

describe("heldPatterns: what an approval leaves outside what was approved", () => {
  const owners = [{ pattern: "docs/", owners: ["writer@example.com"] }];
  it.each([
    ["no rules: nothing held", { policy: DEFAULT_POLICY, approvals: [bo], starter: null }, []],
    [
      "a rule whose reviewers did not approve",
      { policy: dbRule, approvals: [bo], starter: null },
      ["prisma/migrations/*"],
    ],
    ["a rule whose team approved", { policy: dbRule, approvals: [bo, dana], starter: null }, []],
    [
      "an owners line nobody of it approved",
      { policy: DEFAULT_POLICY, approvals: [bo], starter: null, owners },
      ["docs/"],
    ],
    [
      "a reviewer who started the session counts for nothing with self-approval off",
      { policy: { ...dbRule, allowSelfApproval: false }, approvals: [dana], starter: "u-dana" },
      ["prisma/migrations/*"],
    ],
  ] as [string, Omit<Parameters<typeof judgePolicy>[0], "files">, string[]][])("%s", (_, input, out) =>
    expect(heldPatterns(input)).toEqual(out),
  );
  it("isHeld matches a file under a held pattern only", () => {
    expect(isHeld("prisma/migrations/x.sql", ["prisma/migrations/*"])).toBe(true);
    expect(isHeld("src/app.ts", ["prisma/migrations/*"])).toBe(false);
  });
});

describe("heldFolders: what a shell command gets read-only", () => {
  it.each([
    [["prisma/migrations/*"], ["prisma/migrations"]],
    [["prisma/migrations/"], ["prisma/migrations"]],
    [
      ["deploy/**/prod.yml", "/config/*.yml"],
      ["deploy", "config"],
    ],
    [["*.sql", "**/secrets/**", "README"], []],
    [["docs/"], ["docs"]],
    [["../outside/*"], []],
  ])("%j → %j", (held, out) => expect(heldFolders(held)).toEqual(out));
});

describe("heldRules and releasesHeld (issue 41): whom a held pattern belongs to", () => {
  const teams = { db: ["Dana@example.com", "dan@example.com"] };
  const policy = {
    ...DEFAULT_POLICY,
    teams,
    paths: [{ patterns: ["prisma/migrations/*"], reviewers: ["team:db", "Olive@example.com"], approvals: 1 }],
  };
  it("expands teams to their people's emails, lowercase, per pattern", () => {
    expect(heldRules({ policy, approvals: [bo], starter: null })).toEqual([
      {
        pattern: "prisma/migrations/*",
        reviewers: ["dana@example.com", "dan@example.com", "olive@example.com"],
      },
    ]);
  });
  it.each<[string, string | null, boolean]>([
    ["one of them", "OLIVE@example.com", true],
    ["a team member", "dan@example.com", true],
    ["anyone else", "bo@example.com", false],
    ["nobody by name (the operator)", null, false],
  ])("%s releases it: %s", (_name, email, out) => {
    expect(releasesHeld(heldRules({ policy, approvals: [bo], starter: null }), email)).toBe(out);
  });
  it("an ask under two rules is released only by someone both name; a rule naming nobody by no one", () => {
    const two = [
      { pattern: "a/*", reviewers: ["x@example.com"] },
      { pattern: "*.sql", reviewers: ["x@example.com", "y@example.com"] },
    ];
    expect(releasesHeld(two, "x@example.com")).toBe(true);
    expect(releasesHeld(two, "y@example.com")).toBe(false);
    expect(releasesHeld([{ pattern: "a/*", reviewers: [] }], "x@example.com")).toBe(false);
    expect(releasesHeld([], "x@example.com")).toBe(false);
  });
});
