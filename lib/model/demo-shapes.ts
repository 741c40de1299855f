/**
 * Pure: the kinds of request the offline demo model can carry out, read from the request and the files it saw.
 * Each plans one change to one named file, so the plan says exactly what it will touch and the check after the
 * turn finds it done. A request of no known kind is said to be so, and is recorded in the notes file instead.
 */

export const NOTES = "PLANGATE-NOTES.md";

export type DemoShape =
  | { kind: "function"; name: string; file: string }
  | { kind: "change"; name: string; file: string; renameTo: string | null }
  | { kind: "test"; subject: string; file: string }
  | { kind: "endpoint"; route: string; file: string }
  | { kind: "docs"; file: string }
  | { kind: "file"; file: string }
  | { kind: "other"; file: typeof NOTES };

export const SHAPES_IN_WORDS = "add or change a function, add a test, add a file, add an endpoint, or write docs";

const CODE = /\.(ts|tsx|js|mjs|cjs|py|go|rs|rb|java)$/;
const IDENT = /^[A-Za-z_$][\w$]*$/;
const COMMON = new Set([
  ...["function", "helper", "method", "called", "named", "that", "which", "test", "tests", "to", "for", "a", "an"],
  ...["the", "in", "on", "of", "with", "from", "into", "and", "or", "it", "this"],
]);

/** A file path the request names (has a folder or an extension), as written. */
function namedPath(task: string): string | null {
  const m = /(?:^|[\s`'"(])((?:[\w.-]+\/)*[\w-]+\.[A-Za-z]{1,5})(?=$|[\s`'",.):;])/.exec(task);
  return m?.[1] && !m[1].startsWith(".") ? m[1] : null;
}

/** The identifier the request names after "function", "helper", "called" or "named" (or in backticks). */
function namedIdent(task: string): string | null {
  const tick = /`([A-Za-z_$][\w$]*)(?:\(\))?`/.exec(task)?.[1];
  if (tick) return tick;
  const m = /\b(?:function|helper|method|called|named)\s+([A-Za-z_$][\w$]*)/i.exec(task);
  return m?.[1] && !COMMON.has(m[1].toLowerCase()) ? m[1] : null;
}

/** camelCase of the request's significant words after the verb: "add a function to count done todos" → countDoneTodos. */
function identFromWords(task: string): string {
  const words = (task.toLowerCase().match(/[a-z][a-z0-9]*/g) ?? []).filter(
    (w) =>
      !["add", "create", "write", "a", "an", "the", "to", "for", "of", "new", "function", "helper", "that"].includes(w),
  );
  const [first = "demo", ...rest] = words.slice(0, 3);
  return first + rest.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const comment = (file: string) => (/\.(py|rb)$/.test(file) ? "#" : "//");
const base = (file: string) => (file.split("/").at(-1) ?? file).replace(/\.[^.]+$/, "");
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40) || "route";

/**
 * The request's kind. `read` is the file the demo read for it (its path and text), `exists` whether a path is
 * in the workspace (from the listing and the search).
 */
export function shapeOf(
  task: string,
  read: { path: string; text: string } | null,
  exists: (p: string) => boolean,
): DemoShape {
  const t = task.toLowerCase();
  const path = namedPath(task);
  const ident = namedIdent(task);
  const readCode = read && CODE.test(read.path) ? read.path : null;
  if (/\b(endpoint|route)\b/.test(t)) {
    const route =
      /(?:^|\s)(\/[\w/-]*)/.exec(task)?.[1] ??
      `/${slug(ident ?? identFromWords(task.replace(/\b(endpoint|route)\b/gi, "")))}`;
    return { kind: "endpoint", route, file: `src/routes/${slug(route)}.ts` };
  }
  if (/\b(tests?|spec)\b/.test(t)) {
    const subject = ident ?? (readCode ? base(readCode) : "workspace");
    const file = readCode ? `test/${base(readCode)}.test.mjs` : `test/${slug(subject)}.test.mjs`;
    return { kind: "test", subject, file };
  }
  if (/\b(docs?|document|documentation|readme)\b/.test(t))
    return { kind: "docs", file: path && /\.md$/.test(path) ? path : "README.md" };
  const known = ident !== null && read !== null && new RegExp(`\\b${esc(ident)}\\b`).test(read.text);
  if (/\b(change|update|modify|rename|fix|improve)\b/.test(t) && ident && known && readCode) {
    const to = /\brename\b.*?\bto\s+`?([A-Za-z_$][\w$]*)/i.exec(task)?.[1] ?? null;
    return { kind: "change", name: ident, file: readCode, renameTo: to && IDENT.test(to) ? to : null };
  }
  if (/\b(function|helper|method)\b/.test(t)) {
    const name = ident ?? identFromWords(task);
    const file = path && CODE.test(path) ? path : (readCode ?? `src/${name}.ts`);
    return known && readCode
      ? { kind: "change", name, file: readCode, renameTo: null }
      : { kind: "function", name, file };
  }
  if (/\b(add|create|new)\b/.test(t) && path && !exists(path)) return { kind: "file", file: path };
  return { kind: "other", file: NOTES };
}

/** The plan's step for the change, naming its file. */
export function shapeStep(shape: DemoShape, title: string): string {
  switch (shape.kind) {
    case "function":
      return `Add the function \`${shape.name}\` to \`${shape.file}\``;
    case "change":
      return shape.renameTo
        ? `Rename \`${shape.name}\` to \`${shape.renameTo}\` in \`${shape.file}\``
        : `Change \`${shape.name}\` in \`${shape.file}\`: ${title}`;
    case "test":
      return `Add a test for ${shape.subject} in \`${shape.file}\``;
    case "endpoint":
      return `Add the endpoint GET ${shape.route} in \`${shape.file}\``;
    case "docs":
      return `Document it in \`${shape.file}\`: ${title}`;
    case "file":
      return `Create \`${shape.file}\` for: ${title}`;
    case "other":
      return `Write ${NOTES} recording the task: ${title}`;
  }
}

/** The file's text after the change, from its text before (null: it does not exist yet). */
export function shapeContent(shape: DemoShape, before: string | null, title: string): string {
  const prior = before ?? "";
  const oneLine = title.replace(/\s+/g, " ");
  const sep = prior && !prior.endsWith("\n") ? "\n" : "";
  switch (shape.kind) {
    case "function":
      // A stub, as the demo writes it: a verify command with tests tells it from the real thing.
      return `${prior}${sep}${prior ? "\n" : ""}/** ${title} (added by the offline demo model). */\nexport function ${shape.name}()${/\.tsx?$/.test(shape.file) ? ": void" : ""} {}\n`;
    case "change": {
      const changed = shape.renameTo
        ? prior.replace(new RegExp(`\\b${esc(shape.name)}\\b`, "g"), () => shape.renameTo ?? shape.name)
        : prior.replace(
            new RegExp(`^(.*\\b${esc(shape.name)}\\b)`, "m"),
            (line) => `${comment(shape.file)} Changed for: ${oneLine}\n${line}`,
          );
      // The change always shows in the file, even where the name was not found where expected.
      return changed === prior ? `${comment(shape.file)} Changed for: ${oneLine}\n${prior}` : changed;
    }
    case "test":
      return `import { test } from "node:test";\nimport assert from "node:assert/strict";\n\n// ${title}\ntest("${shape.subject}", () => {\n  assert.ok(true);\n});\n`;
    case "endpoint":
      return `import type { IncomingMessage, ServerResponse } from "node:http";\n\n/** GET ${shape.route}: ${title} */\nexport function handle(req: IncomingMessage, res: ServerResponse): boolean {\n  if (req.method !== "GET" || req.url !== "${shape.route}") return false;\n  res.end(JSON.stringify({ ok: true }));\n  return true;\n}\n`;
    case "docs":
      return `${prior}${sep}${prior ? "\n" : ""}## ${title}\n\nWritten by the offline demo model for this request.\n`;
    case "file":
      return /\.md$/.test(shape.file)
        ? `# ${oneLine}\n`
        : CODE.test(shape.file)
          ? `${comment(shape.file)} ${oneLine}\n`
          : `${oneLine}\n`;
    case "other":
      return prior;
  }
}
