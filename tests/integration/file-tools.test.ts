import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decide, evaluate, type Ruleset } from "../../lib/permission";
import { fileTools } from "../../lib/tools/file-tools";
import type { PermissionAsk } from "../../lib/tools/types";
import { makeFileFixture, type FileFixture } from "../helpers/file-tools-fixture";

let fx: FileFixture;

beforeAll(async () => {
  fx = await makeFileFixture();
  await fx.put("src/app.ts", "export const app = 1;\n");
  await fs.symlink(fx.outside, path.join(fx.ws, "out-link"));
});

afterAll(() => fx.cleanup());

function tool(name: string) {
  const t = fileTools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
}

const RULES: Ruleset = [
  { permission: "*", pattern: "*", action: "ask" },
  { permission: "edit", pattern: "src/*", action: "allow" },
  { permission: "external_directory", pattern: "*", action: "deny" },
];

/** What the gate would answer: every pattern of every ask, deny wins, then ask. */
function verdict(asks: PermissionAsk[]): string {
  const actions = asks.flatMap((a) => a.patterns.map((p) => evaluate(a.permission, p, RULES)));
  return actions.includes("deny") ? "deny" : actions.includes("ask") ? "ask" : "allow";
}

describe("fileTools", () => {
  it("holds the seven file tools with their permission keys", () => {
    expect(fileTools.map((t) => [t.name, t.permission])).toEqual([
      ["read", "read"],
      ["list", "list"],
      ["glob", "glob"],
      ["grep", "grep"],
      ["write", "edit"],
      ["edit", "edit"],
      ["apply_patch", "edit"],
    ]);
  });

  it.each([
    ["read", { path: "" }],
    ["read", { path: "a", offset: 0 }],
    ["read", { path: "a", limit: 1.5 }],
    ["glob", { path: "." }],
    ["grep", { pattern: "x", include: "" }],
    ["write", { path: "a" }],
    ["edit", { path: "a", oldString: "x" }],
    ["apply_patch", { patch: "" }],
  ])("%s's schema rejects %j", (name, input) => {
    expect(tool(name).inputSchema.safeParse(input).success).toBe(false);
  });
});

describe("asks against real rules", () => {
  it.each([
    ["an edit under src", "edit", { path: "src/app.ts", oldString: "1", newString: "2" }, "allow"],
    [
      "an edit under src spelled with ./ and ..",
      "edit",
      { path: "./lib/../src/app.ts", oldString: "1", newString: "2" },
      "allow",
    ],
    ["a write that leaves and re-enters the workspace", "write", { path: "../ws/src/b.ts", content: "" }, "allow"],
    ["a write outside src", "write", { path: "README.md", content: "" }, "ask"],
    ["a write through a symlink escape", "write", { path: "out-link/x.ts", content: "" }, "deny"],
    [
      "a patch with one file outside",
      "apply_patch",
      { patch: "--- /dev/null\n+++ b/../x.ts\n@@ -0,0 +1 @@\n+x\n" },
      "deny",
    ],
    ["a read", "read", { path: "src/app.ts" }, "ask"],
  ])("%s → %s", async (_label, name, input, expected) => {
    expect(verdict(await tool(name).asks(input, fx.boxed()))).toBe(expected);
  });

  it.each([
    ["the plan file", "plans/plan.md", "allow"],
    ["any other file", "src/app.ts", "deny"],
  ])("plan mode lets write reach %s → %s", async (_label, file, expected) => {
    const ctx = fx.ctx({ mode: "plan", readOnly: true, planFile: path.join(fx.ws, "plans/plan.md") });
    const [ask] = await tool("write").asks({ path: file, content: "# plan\n" }, ctx);
    if (!ask) throw new Error("no ask");
    const decision = decide({
      permission: ask.permission,
      pattern: ask.patterns[0] ?? "",
      rulesets: [RULES],
      mode: "plan",
      gates: { autoGateOpen: false, bypassEnabled: false },
      readOnly: ask.readOnly,
      planFile: ask.planFile,
      insideWorkspace: ask.insideWorkspace,
    });
    expect(decision.action).toBe(expected);
  });
});
