import { describe, expect, it } from "vitest";
import { navLinks } from "./nav-links";
import type { Actor, Role } from "../../auth/rules/rights";

const person = (...roles: Role[]): Actor => ({
  kind: "person",
  userId: "usr_1",
  name: "P",
  memberships: roles.map((role) => ({ root: "/srv/work", role })),
});

describe("navLinks", () => {
  it.each<[string, Actor | null, string[]]>([
    ["signed out", null, []],
    ["an agent token", { kind: "agent-token", tokenId: "tok_1", userId: "usr_1", memberships: [] }, []],
    ["a person with no role", person(), ["/tokens", "/account"]],
    ["a viewer", person("viewer"), ["/desk", "/webhooks", "/tokens", "/account"]],
    ["a reviewer", person("reviewer"), ["/desk", "/webhooks", "/tokens", "/account"]],
    ["an owner", person("owner"), ["/desk", "/webhooks", "/people", "/tokens", "/audit", "/account"]],
    ["the operator", { kind: "operator" }, ["/desk", "/webhooks", "/people", "/audit"]],
  ])("%s sees only the pages they can use", (_who, actor, hrefs) => {
    expect(navLinks(actor).map((l) => l.href)).toEqual(hrefs);
  });
});
