import fs from "node:fs";
import path from "node:path";

const README = `# Sample project

A tiny TODO service used to try Plangate's plan mode. Plain JavaScript, so Node alone runs it and its tests.

- \`src/todo.js\` holds the store
- \`src/server.js\` exposes it over HTTP (\`node src/server.js\`)
- \`test/todo.test.js\` checks the store: \`node --test\`

\`.plangate/config.json\` makes \`node --test\` the verify command: once a plan is carried out, Plangate runs
it (after you trust the config and allow the command) and marks the plan passed only when the tests pass.
Try asking for "Add a function countOpen to src/todo.js that counts the todos not done": the tests already
describe countOpen, so a stub fails them.
`;

const TODO = `/** @typedef {{ id: number, title: string, done: boolean }} Todo */

/** @type {Todo[]} */
const todos = [];

/** @param {string} title */
export function addTodo(title) {
  const todo = { id: todos.length + 1, title, done: false };
  todos.push(todo);
  return todo;
}

export function listTodos() {
  return [...todos];
}
`;

const SERVER = `import { createServer } from "node:http";
import { addTodo, listTodos } from "./todo.js";

createServer((req, res) => {
  if (req.method === "POST") addTodo("new");
  res.end(JSON.stringify(listTodos()));
}).listen(8080);
`;

// Behaviour, not the shape of the code: a stub of countOpen, or a new function with no test, fails.
const TESTS = `import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import * as store from "../src/todo.js";

test("addTodo adds an open todo that listTodos lists", () => {
  const todo = store.addTodo("write the tests");
  assert.equal(todo.done, false);
  assert.ok(store.listTodos().some((t) => t.id === todo.id && t.title === "write the tests"));
});

test("listTodos returns a copy: changing it leaves the store as it was", () => {
  const before = store.listTodos().length;
  store.listTodos().push({ id: 0, title: "not stored", done: false });
  assert.equal(store.listTodos().length, before);
});

// The first thing to ask for. Skipped until it exists; a stub fails it.
test("countOpen counts the todos not done", { skip: !("countOpen" in store) && "countOpen is not written yet" }, () => {
  store.addTodo("still open");
  store.addTodo("finished").done = true;
  assert.equal(store.countOpen(), store.listTodos().filter((t) => !t.done).length);
});

// New code comes with its test: every function exported under src/ is named by a test under test/.
test("every exported function has a test", () => {
  const texts = (dir) =>
    readdirSync(dir, { recursive: true })
      .filter((f) => /\\.[cm]?[jt]s$/.test(f))
      .map((f) => readFileSync(new URL(f, dir), "utf8"));
  const exported = texts(new URL("../src/", import.meta.url)).flatMap((t) =>
    [...t.matchAll(/export\\s+(?:async\\s+)?function\\*?\\s+([A-Za-z_$][\\w$]*)/g)].map((m) => m[1]),
  );
  const titles = texts(new URL("./", import.meta.url)).join("\\n");
  const untested = exported.filter((name) => !new RegExp(\`\\\\btest\\\\([^\\\\n]*\\\\b\${name}\\\\b\`).test(titles));
  assert.deepEqual(untested, [], \`no test names \${untested.join(", ")}: add one under test/\`);
});
`;

export const SAMPLE_FILES: Record<string, string> = {
  "README.md": README,
  "src/todo.js": TODO,
  "src/server.js": SERVER,
  "test/todo.test.js": TESTS,
  "package.json":
    '{\n  "name": "sample-project",\n  "private": true,\n  "type": "module",\n  "scripts": { "test": "node --test" }\n}\n',
  // The verify command: it still waits for a person to trust this config and to allow the command.
  ".plangate/config.json": '{\n  "verify": { "command": "node --test", "timeoutMs": 60000 }\n}\n',
};

/** Creates the small sample project the first time the app starts, so there is something to plan against. */
export function ensureSampleWorkspace(root: string): string {
  const dir = path.join(root, "sample");
  if (fs.existsSync(dir)) return dir;
  for (const [rel, content] of Object.entries(SAMPLE_FILES)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return dir;
}
