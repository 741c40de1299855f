import { describe, expect, it } from "vitest";
import { expandHome, fromConfig, permissionConfigSchema } from "./config";
import type { Ruleset } from "./types";

const home = "/home/ada";

describe("fromConfig", () => {
  it.each<[string, unknown, Ruleset]>([
    ["empty config", {}, []],
    ["string value is a * rule", { bash: "ask" }, [{ permission: "bash", pattern: "*", action: "ask" }]],
    [
      "object keeps insertion order",
      { edit: { "*": "deny", "docs/*.md": "allow", "docs/secret.md": "ask" } },
      [
        { permission: "edit", pattern: "*", action: "deny" },
        { permission: "edit", pattern: "docs/*.md", action: "allow" },
        { permission: "edit", pattern: "docs/secret.md", action: "ask" },
      ],
    ],
    [
      "keys in order across permissions",
      { "*": "allow", bash: { "git *": "allow" }, read: "deny" },
      [
        { permission: "*", pattern: "*", action: "allow" },
        { permission: "bash", pattern: "git *", action: "allow" },
        { permission: "read", pattern: "*", action: "deny" },
      ],
    ],
    [
      "~/ expands",
      { read: { "~/notes/*": "allow" } },
      [{ permission: "read", pattern: "/home/ada/notes/*", action: "allow" }],
    ],
    [
      "~ alone expands",
      { external_directory: { "~": "allow" } },
      [{ permission: "external_directory", pattern: "/home/ada", action: "allow" }],
    ],
    [
      "$HOME expands",
      { read: { "$HOME/.ssh/*": "deny" } },
      [{ permission: "read", pattern: "/home/ada/.ssh/*", action: "deny" }],
    ],
    ["$HOME alone expands", { read: { $HOME: "ask" } }, [{ permission: "read", pattern: "/home/ada", action: "ask" }]],
    [
      "~ in the middle stays",
      { read: { "a/~/b": "allow" } },
      [{ permission: "read", pattern: "a/~/b", action: "allow" }],
    ],
    ["~user stays", { read: { "~bob/x": "allow" } }, [{ permission: "read", pattern: "~bob/x", action: "allow" }]],
    ["empty object gives no rules", { bash: {} }, []],
  ])("%s", (_name, config, want) => {
    expect(fromConfig(config, { home })).toEqual(want);
  });

  it.each<[string, unknown, RegExp]>([
    ["bad action string", { bash: "yes" }, /permission "bash": got "yes"/],
    ["bad nested action", { edit: { "src/*": "maybe" } }, /permission "edit", pattern "src\/\*": got "maybe"/],
    ["number value", { bash: 1 }, /permission "bash": got 1/],
    ["null value", { read: null }, /permission "read": got null/],
    ["array value", { read: ["allow"] }, /permission "read": got \["allow"\]/],
    ["not an object", "allow", /must be an object, got "allow"/],
    ["null config", null, /must be an object, got null/],
    ["empty permission name", { "": "allow" }, /permission name is empty/],
  ])("rejects %s", (_name, config, message) => {
    expect(() => fromConfig(config, { home })).toThrow(message);
  });

  it("the exported schema accepts what fromConfig accepts", () => {
    expect(permissionConfigSchema.safeParse({ bash: { "*": "ask" }, read: "allow" }).success).toBe(true);
    expect(permissionConfigSchema.safeParse({ bash: "never" }).success).toBe(false);
  });

  it.each([
    ["~", "/h/", "/h"],
    ["~/a", "/h", "/h/a"],
    ["C:\\Users\\me\\x", "C:\\Users\\me", "C:\\Users\\me\\x"],
    ["~/a", "C:\\Users\\me\\", "C:\\Users\\me/a"],
  ])("expandHome(%j) with home %j → %j", (pattern, h, want) => {
    expect(expandHome(pattern, h)).toBe(want);
  });
});
