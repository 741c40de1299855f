// `npm run db:schema`: writes prisma/postgres/schema.prisma from prisma/schema.prisma (the one to edit). Only the
// provider and the client's output folder differ; then `prisma migrate diff` writes the PostgreSQL migration.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
export const SQLITE_SCHEMA = path.join(root, "prisma", "schema.prisma");
export const POSTGRES_SCHEMA = path.join(root, "prisma", "postgres", "schema.prisma");

/** Pure: the PostgreSQL twin of the SQLite schema text. */
export function postgresSchema(sqlite: string): string {
  const out = sqlite
    // The Kysely row types are engine-neutral and generated once, from the SQLite schema.
    .replace(/\n\/\/ Row types for the typed queries[\s\S]*?\ngenerator kysely \{[^}]*\}\n/, "")
    .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
    .replace(/output(\s*)=\s*"\.\.\/lib\/db\/generated"/, 'output$1= "../../lib/db/generated-pg"');
  if (out.includes('"sqlite"') || !out.includes("generated-pg") || out.includes("prisma-kysely"))
    throw new Error("prisma/schema.prisma no longer has the expected provider and output lines");
  return `// GENERATED from ../schema.prisma by scripts/pg-schema.ts (npm run db:schema): edit that file, not this one.\n${out}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  fs.writeFileSync(POSTGRES_SCHEMA, postgresSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8")));
  console.log(`wrote ${path.relative(root, POSTGRES_SCHEMA)}`);
}
