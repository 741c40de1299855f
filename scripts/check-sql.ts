// `npm run check:sql`: only lib/db speaks SQL. Fails on SQL text in a string, a query-builder call, a driver or
// Kysely import, or a Prisma ORM call anywhere else in the app (migrations, the schema twin script, benchmarks and
// tests aside). Run by `npm test` before the suites.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export type Finding = { file: string; line: number; what: string };

// SQL as statements are written, not English that happens to share a word ("Select a plan from the list").
const SQL_TEXT = new RegExp(
  [
    String.raw`\bselect\s+[\s\S]*?\bfrom\s+("\w+"|\w+(\s+(where|order|group|limit|join|left|inner|as)\b|\s*[,;)]|\s*$))`,
    String.raw`\binsert\s+into\s+("\w+"|\w+\s*(\(|values\b|select\b))`,
    String.raw`\bupdate\s+"?\w+"?\s+set\s+"?\w+"?\s*=`,
    String.raw`\bdelete\s+from\s+("\w+"|\w+(\s+where\b|\s*;|\s*$))`,
    String.raw`\b(create|alter|drop)\s+(table|index|trigger|function)\b`,
    String.raw`\bpg_notify\s*\(`,
  ].join("|"),
  "i",
);
const BUILDER_CALLS = new Set([
  "selectFrom",
  "insertInto",
  "updateTable",
  "deleteFrom",
  "replaceInto",
  "mergeInto",
  "selectNoFrom",
]);
const ORM_CALLS = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "create",
  "createMany",
  "createManyAndReturn",
  "update",
  "updateMany",
  "upsert",
  "delete",
  "deleteMany",
  "count",
  "aggregate",
  "groupBy",
]);
const RAW_CALLS = new Set(["$queryRaw", "$executeRaw", "$queryRawUnsafe", "$executeRawUnsafe", "$transaction"]);
const DRIVERS = /^(kysely|pg|better-sqlite3|@prisma\/adapter-[\w-]+|@prisma\/driver-adapter-utils)(\/|$)/;

/** The Prisma model names as the client spells them (session, sessionEvent, …). */
export function ormModels(schema: string): Set<string> {
  return new Set(
    [...schema.matchAll(/^model (\w+)/gm)].map((m) => (m[1] as string)[0]?.toLowerCase() + (m[1] as string).slice(1)),
  );
}

/** Pure: what in one source file speaks SQL. */
export function sqlFindings(file: string, text: string, models: Set<string>): Finding[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Finding[] = [];
  const add = (node: ts.Node, what: string) =>
    found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, what });
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      const parent = node.parent;
      const isModule = parent && (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent));
      if (!isModule && SQL_TEXT.test(node.text)) add(node, `SQL text: ${JSON.stringify(node.text.slice(0, 60))}`);
    }
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (DRIVERS.test(node.moduleSpecifier.text)) add(node, `imports ${node.moduleSpecifier.text}`);
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      const target = node.expression.expression;
      if (BUILDER_CALLS.has(name)) add(node, `query builder: .${name}(`);
      if (RAW_CALLS.has(name)) add(node, `Prisma raw: .${name}(`);
      if (ORM_CALLS.has(name) && ts.isPropertyAccessExpression(target) && models.has(target.name.text)) {
        add(node, `Prisma ORM: .${target.name.text}.${name}(`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const ROOTS = ["lib", "app", "components", "cli", "bin", "scripts"];
// The data layer itself, and what prepares the schema (this check names SQL, the schema twin writes Prisma's).
const ALLOWED = /^(lib\/db\/|scripts\/(pg-schema|check-sql)\.ts$|scripts\/local-postgres\.ts$)|\.test\.tsx?$/;

function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!["node_modules", "generated", ".next"].includes(entry.name)) walk(full);
      } else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name)) out.push(full);
    }
  };
  for (const r of ROOTS) if (fs.existsSync(path.join(root, r))) walk(path.join(root, r));
  return out;
}

export function checkTree(root: string): Finding[] {
  const models = ormModels(fs.readFileSync(path.join(root, "prisma", "schema.prisma"), "utf8"));
  return sourceFiles(root)
    .map((f) => path.relative(root, f))
    .filter((f) => !ALLOWED.test(f))
    .flatMap((f) => sqlFindings(f, fs.readFileSync(path.join(root, f), "utf8"), models));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const findings = checkTree(path.resolve(import.meta.dirname, ".."));
  for (const f of findings) console.error(`${f.file}:${f.line}: ${f.what}`);
  if (findings.length > 0) {
    console.error(
      `check-sql: ${findings.length} place(s) outside lib/db speak SQL; move them into their lib/db module`,
    );
    process.exit(1);
  }
  console.log("check-sql: only lib/db speaks SQL");
}
