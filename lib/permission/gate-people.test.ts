// The gate's answers where a person's role decides: a folder outside the workspace, a plan, a held path, who may
// answer an ask (the calls' table is gate.test.ts).
import { describe, expect, it } from "vitest";
import { gate, type AnswerQuestion, type CallQuestion, type PlanQuestion } from "./gate";
import type { Action, Rule, RuleSource } from "./types";
import { call } from "../../tests/helpers/gate-questions";

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
