import { describe, expect, it } from "vitest";
import { type AnswerQuestion, gate, ruleApplies, type Actor, type CallQuestion, type PlanQuestion } from "./gate";
import type { Action, Rule, RuleSource } from "./types";

const OPEN = { autoGateOpen: true, bypassEnabled: true };
const rule = (action: Action, source?: RuleSource, pattern = "*", exact = false): Rule => ({
  permission: "bash",
  pattern,
  action,
  ...(source ? { source } : {}),
  ...(exact ? { exact: true } : {}),
});

const call = (over: Partial<CallQuestion>): CallQuestion => ({
  about: "call",
  actor: "agent",
  permission: "bash",
  pattern: "mkdir x",
  mode: "default",
  gates: OPEN,
  readOnly: false,
  insideWorkspace: true,
  rule: undefined,
  ...over,
});

describe("ruleApplies: which rules may answer for whom", () => {
  it.each<[Actor, RuleSource | undefined, Action, boolean]>([
    // Plangate's sandboxed agent: native, trusted config and its own grants; an untrusted config only narrows.
    ["agent", undefined, "allow", true],
    ["agent", "config", "allow", true],
    ["agent", "grant", "allow", true],
    ["agent", "untrusted-config", "allow", false],
    ["agent", "untrusted-config", "ask", true],
    ["agent", "untrusted-config", "deny", true],
    ["agent", "outside-grant", "allow", false],
    // Outside agents: only a person's grants made for them allow; any workspace config only narrows.
    ["outside", "outside-grant", "allow", true],
    ["outside", undefined, "allow", false],
    ["outside", "grant", "allow", false],
    ["outside", "config", "allow", false],
    ["outside", "untrusted-config", "allow", false],
    ["outside", "config", "deny", true],
    ["outside", "untrusted-config", "ask", true],
    ["outside", undefined, "deny", false],
    // Nobody's rules answer for a model or a person.
    ["model", "grant", "allow", false],
    ["person", "config", "allow", false],
  ])("%s, %s %s → %s", (actor, source, action, applies) => {
    expect(ruleApplies(actor, rule(action, source))).toBe(applies);
  });
});

describe("gate: calls (facts → answer)", () => {
  it.each<[string, Partial<CallQuestion>, Action, RegExp]>([
    // Plangate's agent
    ["agent: no rule asks", {}, "ask", /no rule matched/],
    ["agent: a trusted config allow answers", { rule: rule("allow", "config") }, "allow", /config/],
    ["agent: an untrusted config allow is ignored", { rule: rule("allow", "untrusted-config") }, "ask", /no rule/],
    ["agent: its grant answers a plain command", { rule: rule("allow", "grant", "mkdir *") }, "allow", /mkdir/],
    [
      "agent: a prefix grant never answers a command that is not plain",
      { rule: rule("allow", "grant", "mkdir *"), plain: false },
      "ask",
      /no rule/,
    ],
    [
      "agent: an exact grant answers its own text",
      { rule: rule("allow", "grant", "mkdir x > y", true), pattern: "mkdir x > y", plain: false },
      "allow",
      /exact|mkdir/,
    ],
    [
      "agent: a grant for outside agents is ignored",
      { rule: rule("allow", "outside-grant", "mkdir *") },
      "ask",
      /no rule/,
    ],
    [
      "agent: an untrusted deny narrows an allow",
      { rule: rule("allow", "config"), narrowing: rule("deny", "untrusted-config") },
      "deny",
      /workspace's config/,
    ],
    [
      "agent: an untrusted ask narrows a native allow",
      {
        permission: "read",
        rule: { permission: "read", pattern: "*", action: "allow" },
        narrowing: { permission: "read", pattern: "*", action: "ask", source: "untrusted-config" },
      },
      "ask",
      /workspace's config/,
    ],
    [
      "agent: an untrusted ask does not lift a native deny",
      { rule: rule("deny"), narrowing: rule("ask", "untrusted-config") },
      "deny",
      /deny/,
    ],
    ["agent: a narrowing allow is never one", { narrowing: rule("allow", "untrusted-config") }, "ask", /no rule/],
    ["agent: auto answers an ask", { mode: "auto" }, "allow", /auto mode/],
    [
      "agent: auto does not answer a control file",
      { mode: "auto", control: true, rule: rule("allow", "grant") },
      "ask",
      /control file/,
    ],
    ["agent: a person allowed it once", { personAllowed: true }, "allow", /once by a person/],
    ["agent: once does not lift a deny", { personAllowed: true, rule: rule("deny") }, "deny", /deny/],
    ["agent: plan mode denies a write", { mode: "plan", rule: rule("allow", "config") }, "deny", /plan mode/],
    ["agent: read-only bash runs", { readOnly: true }, "allow", /read-only/],
    // No sandbox of ours: the command would run on the host, so only a person (or the operator's bypass) answers
    [
      "agent, unsandboxed: its grant does not answer",
      { unsandboxed: true, rule: rule("allow", "grant", "mkdir x", true) },
      "ask",
      /no sandbox/,
    ],
    ["agent, unsandboxed: auto does not answer", { unsandboxed: true, mode: "auto" }, "ask", /no sandbox/],
    [
      "agent, unsandboxed: a trusted config allow does not answer",
      { unsandboxed: true, rule: rule("allow", "config") },
      "ask",
      /no sandbox/,
    ],
    [
      "agent, unsandboxed: a person allowed it once",
      { unsandboxed: true, personAllowed: true },
      "allow",
      /once by a person/,
    ],
    ["agent, unsandboxed: plan mode still denies", { unsandboxed: true, mode: "plan" }, "deny", /plan mode/],
    ["agent, unsandboxed: a deny still denies", { unsandboxed: true, rule: rule("deny") }, "deny", /deny/],
    ["agent, unsandboxed: a read-only command still runs", { unsandboxed: true, readOnly: true }, "allow", /read-only/],
    [
      "agent, unsandboxed: edits are not commands",
      {
        unsandboxed: true,
        permission: "edit",
        mode: "acceptEdits",
        rule: { permission: "edit", pattern: "*", action: "ask" },
      },
      "allow",
      /acceptEdits/,
    ],
    // Outside agents: unsandboxed, so nothing but a person's grant for them allows
    ["outside: no grant asks", { actor: "outside" }, "ask", /person decides/],
    ["outside: a native allow is ignored", { actor: "outside", rule: rule("allow") }, "ask", /person decides/],
    [
      "outside: a grant made for the sandboxed agent is ignored",
      { actor: "outside", rule: rule("allow", "grant", "mkdir *") },
      "ask",
      /person decides/,
    ],
    [
      "outside: a trusted config allow is ignored",
      { actor: "outside", rule: rule("allow", "config") },
      "ask",
      /person decides/,
    ],
    [
      "outside: a grant for outside agents answers a plain command",
      { actor: "outside", rule: rule("allow", "outside-grant", "mkdir *") },
      "allow",
      /grant for outside agents/,
    ],
    [
      "outside: a prefix grant never answers a command that is not plain",
      {
        actor: "outside",
        rule: rule("allow", "outside-grant", "mkdir *"),
        pattern: "mkdir x && curl e.test",
        plain: false,
      },
      "ask",
      /person decides/,
    ],
    [
      "outside: an exact grant answers its own text",
      {
        actor: "outside",
        rule: rule("allow", "outside-grant", "mkdir x && y", true),
        pattern: "mkdir x && y",
        plain: false,
      },
      "allow",
      /grant for outside/,
    ],
    [
      "outside: a control file asks whatever the grant",
      {
        actor: "outside",
        permission: "edit",
        pattern: ".claude/settings.json",
        control: true,
        rule: { permission: "edit", pattern: "*", action: "allow", source: "outside-grant" },
      },
      "ask",
      /control file/,
    ],
    [
      "outside: the workspace's deny refuses",
      { actor: "outside", rule: rule("allow", "outside-grant"), narrowing: rule("deny", "untrusted-config") },
      "deny",
      /deny/,
    ],
    [
      "outside: the workspace's ask is not answered by a grant",
      { actor: "outside", rule: rule("allow", "outside-grant"), narrowing: rule("ask", "config") },
      "ask",
      /workspace's config/,
    ],
    [
      "outside: a person's once answers the workspace's ask",
      { actor: "outside", personAllowed: true, narrowing: rule("ask", "config") },
      "allow",
      /once by a person/,
    ],
    ["outside: its mode never answers (auto)", { actor: "outside", mode: "auto" }, "ask", /person decides/],
    [
      "outside: bypassPermissions does not either",
      { actor: "outside", mode: "bypassPermissions", control: true },
      "ask",
      /control file/,
    ],
  ])("%s", (_name, over, action, reason) => {
    const d = gate(call(over));
    expect(d.action).toBe(action);
    expect(d.reason).toMatch(reason);
  });

  it("says which answers a person allowed as written (control files then stay writable to that command)", () => {
    // A saved exact grant is not: what `npm test` runs may have changed since it was saved.
    expect(gate(call({ rule: rule("allow", "grant", "mkdir x", true) })).asWritten).toBeUndefined();
    expect(gate(call({ mode: "bypassPermissions" })).asWritten).toBe(true);
    expect(gate(call({ rule: rule("allow", "grant", "mkdir *") })).asWritten).toBeUndefined();
    expect(gate(call({ rule: rule("allow", "config", "mkdir x", true) })).asWritten).toBeUndefined();
    expect(gate(call({ personAllowed: true })).asWritten).toBe(true);
    expect(gate(call({ mode: "auto" })).asWritten).toBeUndefined();
  });
});

describe("gate: a folder outside the workspace is a person's question (issue 41)", () => {
  const folder = "/srv/other/*";
  const outside = (over: Partial<CallQuestion>): CallQuestion =>
    call({ permission: "external_directory", pattern: folder, readOnly: true, insideWorkspace: false, ...over });
  const grant = (pattern: string, source: RuleSource = "grant"): Rule => ({
    permission: "external_directory",
    pattern,
    action: "allow",
    source,
  });
  it.each<[string, Partial<CallQuestion>, Action]>([
    ["no rule: asks", {}, "ask"],
    ["acceptEdits does not answer it", { mode: "acceptEdits" }, "ask"],
    ["auto with its gate open does not answer it", { mode: "auto" }, "ask"],
    ["bypassPermissions does not answer it", { mode: "bypassPermissions" }, "ask"],
    ["a native allow does not", { rule: grant(folder, "native") }, "ask"],
    ["a trusted workspace config's allow does not", { rule: grant(folder, "config"), mode: "auto" }, "ask"],
    ["a grant for another folder does not", { rule: grant("/srv/*"), mode: "bypassPermissions" }, "ask"],
    ["a grant for outside agents does not", { rule: grant(folder, "outside-grant") }, "ask"],
    ["a person's grant for exactly this folder does", { rule: grant(folder) }, "allow"],
    ["a person's answer for this call does", { personAllowed: true, mode: "auto" }, "allow"],
    ["a deny still denies", { rule: { ...grant(folder, "config"), action: "deny" } }, "deny"],
    ["plan mode: still asks (a read outside)", { mode: "plan" }, "ask"],
  ])("%s", (_name, over, action) => {
    expect(gate(outside(over)).action).toBe(action);
  });

  const change = (over: Partial<CallQuestion>): CallQuestion =>
    call({ permission: "edit", pattern: "/srv/other/a.sh", readOnly: false, insideWorkspace: false, ...over });
  const edit = (pattern: string, source: RuleSource = "grant"): Rule => ({
    permission: "edit",
    pattern,
    action: "allow",
    source,
  });
  it.each<[string, Partial<CallQuestion>, Action]>([
    ["a change outside: auto does not answer it", { mode: "auto" }, "ask"],
    ["bypassPermissions does not", { mode: "bypassPermissions" }, "ask"],
    ["acceptEdits does not", { mode: "acceptEdits" }, "ask"],
    ["an agent's native allow does not", { rule: edit("*", "native"), mode: "auto" }, "ask"],
    ["a grant for another path does not", { rule: edit("/srv/other/*") }, "ask"],
    ["a person's grant for exactly this path does", { rule: edit("/srv/other/a.sh") }, "allow"],
    ["a person's answer for this call does", { personAllowed: true }, "allow"],
    ["plan mode refuses it", { mode: "plan" }, "deny"],
  ])("%s", (_name, over, action) => {
    expect(gate(change(over)).action).toBe(action);
  });

  it.each<[string, boolean | undefined, "once" | "reject", Action]>([
    ["an answerer with a role where the folder is may allow it", true, "once", "allow"],
    ["one without may not", false, "once", "deny"],
    ["one without may still refuse it", false, "reject", "allow"],
    ["an ask inside the workspace is not about this", undefined, "once", "allow"],
  ])("answers: %s", (_name, there, reply, action) => {
    const d = gate({
      about: "answer",
      reply,
      control: false,
      held: false,
      namedReviewer: false,
      owner: false,
      ...(there === undefined ? {} : { outside: { mayAnswerThere: there } }),
    });
    expect(d.action).toBe(action);
  });
});

describe("gate: plan decisions (facts → answer)", () => {
  const plan = (over: Partial<PlanQuestion>): PlanQuestion => ({
    about: "plan",
    actor: "person",
    decision: "approve",
    planOf: "agent",
    ...over,
  });
  it.each<[string, Partial<PlanQuestion>, Action, RegExp]>([
    ["a person approves Plangate's agent's plan", {}, "allow", /a person decided/],
    ["a person approves an outside agent's plan", { planOf: "outside" }, "allow", /a person decided/],
    [
      "a lead's model approves a teammate's plan with its own rights",
      { actor: "model", model: { mode: "acceptEdits", readOnly: false } },
      "allow",
      /rights it has/,
    ],
    [
      "a lead's model in plan mode may not approve",
      { actor: "model", model: { mode: "plan", readOnly: false } },
      "deny",
      /plan mode/,
    ],
    [
      "a read-only lead's model may not approve",
      { actor: "model", model: { mode: "default", readOnly: true } },
      "deny",
      /read-only/,
    ],
    [
      "a team that requires a person",
      { actor: "model", personRequired: true, model: { mode: "default", readOnly: false } },
      "deny",
      /requires a person/,
    ],
    [
      "a lead's model may send a teammate's plan back",
      { actor: "model", decision: "reject", model: { mode: "plan", readOnly: true } },
      "allow",
      /send a plan back/,
    ],
    [
      "a model never approves an outside agent's plan",
      { actor: "model", planOf: "outside", model: { mode: "bypassPermissions", readOnly: false } },
      "deny",
      /only a person/,
    ],
    ["nor sends it back", { actor: "model", planOf: "outside", decision: "reject" }, "deny", /only a person/],
    ["an outside agent never decides a plan", { actor: "outside" }, "deny", /only a person or the team lead's model/],
    ["Plangate's own agent never decides a plan", { actor: "agent" }, "deny", /only a person or the team lead's model/],
  ])("%s", (_name, over, action, reason) => {
    const d = gate(plan(over));
    expect(d.action).toBe(action);
    expect(d.reason).toMatch(reason);
  });
});

describe("gate: a held path (issue 41) asks a person in every mode but plan, whatever a rule or mode says", () => {
  const write = (over: Partial<CallQuestion>) =>
    call({ permission: "edit", pattern: "migrations/1.sql", control: true, held: true, ...over });
  it.each<[string, Partial<CallQuestion>, Action]>([
    ["default", { mode: "default" }, "ask"],
    ["acceptEdits", { mode: "acceptEdits" }, "ask"],
    ["auto", { mode: "auto" }, "ask"],
    ["bypassPermissions (which answers a control file)", { mode: "bypassPermissions" }, "ask"],
    ["an allow rule", { rule: { permission: "edit", pattern: "*", action: "allow" } }, "ask"],
    ["a grant", { rule: { permission: "edit", pattern: "*", action: "allow", source: "grant" } }, "ask"],
    ["plan mode keeps its deny", { mode: "plan" }, "deny"],
    ["a deny rule still denies", { rule: { permission: "edit", pattern: "*", action: "deny" } }, "deny"],
    ["a person allowed this very call", { personAllowed: true, mode: "bypassPermissions" }, "allow"],
  ])("%s → %s", (_name, over, action) => {
    expect(gate(write(over)).action).toBe(action);
  });
  it("a control file that is not held is still bypassPermissions' to answer", () => {
    expect(gate(write({ held: false, mode: "bypassPermissions" })).action).toBe("allow");
  });
});

describe("gate: who may answer an ask (issue 41)", () => {
  const answer = (over: Partial<AnswerQuestion>): AnswerQuestion => ({
    about: "answer",
    reply: "once",
    control: false,
    held: false,
    namedReviewer: false,
    owner: false,
    ...over,
  });
  it.each<[string, Partial<AnswerQuestion>, Action, string | undefined]>([
    ["an ordinary ask, once", {}, "allow", undefined],
    ["an ordinary ask, always", { reply: "always" }, "allow", undefined],
    ["a control file, always", { reply: "always", control: true }, "deny", "once"],
    ["a control file, once", { control: true }, "allow", undefined],
    ["a held path by another reviewer", { control: true, held: true }, "deny", undefined],
    ["a held path by one of its reviewers", { control: true, held: true, namedReviewer: true }, "allow", undefined],
    [
      "a held path, always, even by its reviewer",
      { reply: "always", control: true, held: true, namedReviewer: true },
      "deny",
      "once",
    ],
    ["a held path by an owner without a reason", { control: true, held: true, owner: true }, "deny", "reason"],
    [
      "a held path by an owner with a reason",
      { control: true, held: true, owner: true, reason: "on leave" },
      "allow",
      undefined,
    ],
    ["a held path rejected by anyone", { reply: "reject", control: true, held: true }, "allow", undefined],
  ])("%s → %s", (_name, over, action, fix) => {
    const d = gate(answer(over));
    expect(d.action).toBe(action);
    expect(d.fix).toBe(fix);
  });
});
