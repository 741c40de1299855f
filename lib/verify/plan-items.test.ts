import { describe, expect, it } from "vitest";
import { pathsIn, planItems } from "./plan-items";

describe("pathsIn", () => {
  it.each<[string, string[]]>([
    ["Add a `done` flag in `src/todo.ts`", ["src/todo.ts"]],
    ["Update README.md and package.json.", ["README.md", "package.json"]],
    ["touch ./lib/a.ts, then lib/b/c.tsx", ["lib/a.ts", "lib/b/c.tsx"]],
    ["Move files into src/handlers/ folder", ["src/handlers"]],
    ["Bump to version 1.2.3 (see https://x.io/a.html)", []],
    ["Nothing path-like here", []],
    ["Escape attempt ../etc/passwd", []],
  ])("%s", (text, want) => {
    expect(pathsIn(text)).toEqual(want);
  });
});

describe("planItems", () => {
  it("reads numbered and bulleted steps, task lists, nested paths and a files section; skips code", () => {
    const plan = [
      "# Plan: done flag",
      "",
      "Some context about src/ignored.ts in prose.",
      "",
      "## Steps",
      "1. Add a `done` field to `src/todo.ts`",
      "2. Expose it over HTTP",
      "   - in src/server.ts",
      "- [ ] Write a test",
      "- [x] Update the README.md",
      "",
      "```ts",
      "1. not a step in code",
      "```",
      "",
      "## Files",
      "- src/todo.ts",
      "- test/todo.test.ts",
      "- nothing here",
    ].join("\n");
    expect(planItems(plan)).toEqual([
      { id: 1, text: "Add a `done` field to `src/todo.ts`", files: ["src/todo.ts"], source: "step" },
      { id: 2, text: "Expose it over HTTP", files: ["src/server.ts"], source: "step" },
      { id: 3, text: "Write a test", files: [], source: "task" },
      { id: 4, text: "Update the README.md", files: ["README.md"], source: "task" },
      { id: 5, text: "src/todo.ts", files: ["src/todo.ts"], source: "files" },
      { id: 6, text: "test/todo.test.ts", files: ["test/todo.test.ts"], source: "files" },
    ]);
  });

  it("a plan with no list has no items", () => {
    expect(planItems("# Plan\n\nJust do it.")).toEqual([]);
  });
});

describe("only actionable steps are items", () => {
  it("skips out-of-scope entries, notes, questions and risks", () => {
    const plan = [
      "# Plan",
      "1. Add `limit` to src/list.ts",
      "2. Should we also page the search?",
      "## Out of scope",
      "- Rewriting the storage layer",
      "## Notes",
      "- The API stays compatible",
      "**Questions:**",
      "- Which page size?",
      "## Steps, continued",
      "- Update README.md",
    ].join("\n");
    expect(planItems(plan).map((i) => i.text)).toEqual(["Add `limit` to src/list.ts", "Update README.md"]);
  });
});
