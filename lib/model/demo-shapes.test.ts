import { describe, expect, it } from "vitest";
import { shapeContent, shapeOf } from "./demo-shapes";

const TODO = "export function addTodo(title: string) {}\nexport function listTodos() {}\n";
const read = { path: "src/todo.ts", text: TODO };
const none = () => false;

describe("shapeOf: the kind of request, from its words and the file read", () => {
  it.each([
    ["Add a function countDone to src/todo.ts", read, { kind: "function", name: "countDone", file: "src/todo.ts" }],
    [
      "Add a helper to count done todos",
      null,
      { kind: "function", name: "countDoneTodos", file: "src/countDoneTodos.ts" },
    ],
    [
      "Rename the function listTodos to allTodos",
      read,
      { kind: "change", name: "listTodos", file: "src/todo.ts", renameTo: "allTodos" },
    ],
    [
      "Update `addTodo` to trim the title",
      read,
      { kind: "change", name: "addTodo", file: "src/todo.ts", renameTo: null },
    ],
    // A change to a function the file read does not have is an addition, never an edit of something else.
    ["Change the function removeTodo", read, { kind: "function", name: "removeTodo", file: "src/todo.ts" }],
    ["Add a test for the todo store", read, { kind: "test", subject: "todo", file: "test/todo.test.mjs" }],
    ["Add an endpoint /health", read, { kind: "endpoint", route: "/health", file: "src/routes/health.ts" }],
    ["Add a route for stats", null, { kind: "endpoint", route: "/stats", file: "src/routes/stats.ts" }],
    ["Document the store in docs/store.md", null, { kind: "docs", file: "docs/store.md" }],
    ["Write the docs", null, { kind: "docs", file: "README.md" }],
    ["Create notes/todo.txt", null, { kind: "file", file: "notes/todo.txt" }],
    ["Make the todos faster", read, { kind: "other", file: "PLANGATE-NOTES.md" }],
  ])("%s", (task, file, want) => {
    expect(shapeOf(task, file, none)).toEqual(want);
  });

  it("a file the request names that already exists is not created again", () => {
    expect(shapeOf("Create src/todo.ts", read, (p) => p === "src/todo.ts").kind).toBe("other");
  });
});

describe("shapeContent: the file after the change always differs from before", () => {
  it.each([
    [
      { kind: "function", name: "countDone", file: "src/todo.ts" } as const,
      TODO,
      /export function listTodos\(\) \{\}\n\n\/\*\* t[^\n]*\*\/\nexport function countDone/,
    ],
    [
      { kind: "change", name: "listTodos", file: "src/todo.ts", renameTo: "all$&Todos" } as const,
      TODO,
      /export function all\$&Todos\(\)/,
    ],
    [
      { kind: "change", name: "addTodo", file: "src/todo.ts", renameTo: null } as const,
      TODO,
      /\/\/ Changed for: t\nexport function addTodo/,
    ],
    [
      { kind: "change", name: "gone", file: "src/todo.ts", renameTo: null } as const,
      TODO,
      /^\/\/ Changed for: t\nexport function addTodo/,
    ],
    [{ kind: "docs", file: "README.md" } as const, "# Readme", /^# Readme\n\n## t\n/],
  ])("%o", (shape, before, want) => {
    const after = shapeContent(shape, before, "t");
    expect(after).toMatch(want);
    expect(after).not.toBe(before);
  });
});
