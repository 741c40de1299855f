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

// The plan as the page renders it (CommonMark with task lists), where reading it line by line went wrong.
describe("planItems reads the Markdown's structure, not its lines", () => {
  type Row = [string, string, [string, string[]][]];
  it.each<Row>([
    [
      "a numbered line in a four-backtick fence that shows a ``` fence",
      "# Plan\n1. Add src/a.ts\n\n````md\n```\n2. not a step\n````\n",
      [["Add src/a.ts", ["src/a.ts"]]],
    ],
    [
      "a ``` line inside a ~~~ fence",
      "1. Add src/a.ts\n\n~~~\n```\n2. not a step\n~~~\n",
      [["Add src/a.ts", ["src/a.ts"]]],
    ],
    ["an indented code block", "# Plan\n\nRun this:\n\n    1. not a step\n", []],
    ["an HTML comment", "1. Add src/a.ts\n\n<!--\n2. hidden\n-->\n", [["Add src/a.ts", ["src/a.ts"]]]],
    ["a quote", "> 1. quoted src/a.ts\n", []],
    [
      "an underlined (setext) Out of scope heading",
      "1. Add src/a.ts\n\nOut of scope\n------------\n\n- Rewrite src/db.ts\n",
      [["Add src/a.ts", ["src/a.ts"]]],
    ],
    [
      "a step wrapped over two lines",
      "1. Add a field\n   to src/todo.ts\n2. Test it\n",
      [
        ["Add a field to src/todo.ts", ["src/todo.ts"]],
        ["Test it", []],
      ],
    ],
    ["a lazy continuation line", "- Add a flag\nin src/a.ts\n", [["Add a flag in src/a.ts", ["src/a.ts"]]]],
    [
      "a further paragraph of a step",
      "1. Add the route\n\n   It lives in src/routes.ts.\n\n2. Test it\n",
      [
        ["Add the route", ["src/routes.ts"]],
        ["Test it", []],
      ],
    ],
    [
      "entries nested under a question belong to it, not to the step before",
      "1. Add src/a.ts\n2. Should we cache?\n   - in src/cache.ts\n",
      [["Add src/a.ts", ["src/a.ts"]]],
    ],
    [
      "nested numbered and bulleted lists, several levels deep",
      "1. Split the handler\n   1. read in src/read.ts\n      - with src/parse.ts\n   2. write in src/write.ts\n2. Test it\n",
      [
        ["Split the handler", ["src/read.ts", "src/parse.ts", "src/write.ts"]],
        ["Test it", []],
      ],
    ],
    [
      "a top-level list indented by two spaces is not nested",
      "Intro\n\n  - Add src/a.ts\n  - Add src/b.ts\n",
      [
        ["Add src/a.ts", ["src/a.ts"]],
        ["Add src/b.ts", ["src/b.ts"]],
      ],
    ],
    [
      "a command in a step's code block names no file",
      "1. Run the check\n   ```sh\n   node scripts/x.ts\n   ```\n",
      [["Run the check", []]],
    ],
  ])("%s", (_name, plan, want) => {
    expect(planItems(plan).map((i) => [i.text, i.files])).toEqual(want);
  });

  it("numbered task-list entries are tasks, nested file entries are files", () => {
    const plan = "## Steps\n1. [ ] Add src/a.ts\n2. [x] Add src/b.ts\n\n## Files\n- src/\n  - src/a.ts\n  - src/b.ts\n";
    expect(planItems(plan).map((i) => [i.text, i.source])).toEqual([
      ["Add src/a.ts", "task"],
      ["Add src/b.ts", "task"],
      ["src/a.ts", "files"],
      ["src/b.ts", "files"],
    ]);
  });
});
