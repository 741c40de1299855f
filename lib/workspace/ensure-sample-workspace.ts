import fs from "node:fs";
import path from "node:path";

export const SAMPLE_FILES: Record<string, string> = {
  "README.md":
    "# Sample project\n\nA tiny TODO service used to try Plangate's plan mode.\n\n- `src/todo.ts` holds the store\n- `src/server.ts` exposes it over HTTP\n",
  "src/todo.ts":
    "export type Todo = { id: number; title: string; done: boolean };\n\nconst todos: Todo[] = [];\n\nexport function addTodo(title: string): Todo {\n  const todo = { id: todos.length + 1, title, done: false };\n  todos.push(todo);\n  return todo;\n}\n\nexport function listTodos(): Todo[] {\n  return [...todos];\n}\n",
  "src/server.ts":
    'import { createServer } from "node:http";\nimport { addTodo, listTodos } from "./todo";\n\ncreateServer((req, res) => {\n  if (req.method === "POST") addTodo("new");\n  res.end(JSON.stringify(listTodos()));\n}).listen(8080);\n',
  "package.json": '{\n  "name": "sample-project",\n  "private": true,\n  "scripts": { "test": "node --test" }\n}\n',
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
