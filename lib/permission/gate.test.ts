import { describe, expect, it } from "vitest";
import { gate, ruleApplies, type Actor, type CallQuestion } from "./gate";
import type { Action, RuleSource } from "./types";
import { rule, call } from "../../tests/helpers/gate-questions";

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
