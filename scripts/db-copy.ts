// `npm run db:copy -- --to postgresql://… [--from file:…]`: copy a SQLite database into an empty PostgreSQL one,
// verify it (row counts and contents per table, every session's log folded on both sides) and print a summary.
// Exits 0 only when the copy was verified and committed.
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { copyDatabase } from "../lib/db/copy-database";
import { CopyRefused, redactUrl } from "../lib/db/copy-values";

const USAGE =
  "usage: npm run db:copy -- --to postgresql://user@host:5432/db [--from file:./data/plangate.db] [--batch 500]";

const argsSchema = z.object({
  from: z.string().refine((v) => v.startsWith("file:"), "--from must be a SQLite database URL (file:…)"),
  to: z
    .string({ error: "--to is required" })
    .refine((v) => /^postgres(ql)?:\/\/./.test(v), "--to must be a PostgreSQL URL (postgresql://…)"),
  batch: z.coerce.number().int().min(1).max(1000).default(500),
});

function fail(message: string, code = 2): never {
  console.error(`db:copy: ${message}`);
  process.exit(code);
}

let raw: { values: Record<string, string | boolean | undefined> };
try {
  raw = parseArgs({
    options: { from: { type: "string" }, to: { type: "string" }, batch: { type: "string" }, help: { type: "boolean" } },
    strict: true,
  });
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
}
if (raw.values.help) {
  console.log(USAGE);
  process.exit(0);
}
const parsed = argsSchema.safeParse({
  ...raw.values,
  // As the server finds it: DATABASE_URL, else plangate.db in PLANGATE_DATA_DIR (./data by default).
  from:
    raw.values.from ||
    process.env.DATABASE_URL ||
    `file:${path.resolve(process.env.PLANGATE_DATA_DIR || "./data", "plangate.db")}`,
});
if (!parsed.success) fail(`${parsed.error.issues.map((i) => i.message).join("; ")}\n${USAGE}`);
const { from, to, batch } = parsed.data;

console.log(`db:copy: ${redactUrl(from)} → ${redactUrl(to)}`);
const started = Date.now();
const progress = (line: string) => console.log(`  [${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);
try {
  const report = await copyDatabase({ from, to, batchSize: batch, onProgress: progress });
  const width = Math.max(...report.tables.map((t) => t.table.length));
  console.log(`\n${"table".padEnd(width)}  ${"source".padStart(9)}  ${"target".padStart(9)}`);
  for (const t of report.tables) {
    const mark =
      t.source === t.target && t.sameRows ? "ok" : t.source === t.target ? "CONTENTS DIFFER" : "COUNT DIFFERS";
    console.log(`${t.table.padEnd(width)}  ${String(t.source).padStart(9)}  ${String(t.target).padStart(9)}  ${mark}`);
  }
  console.log(`\nsessions folded and compared: ${report.sessions}; search documents rebuilt: ${report.searchDocs}`);
  if (!report.ok) {
    console.error(
      `\ndb:copy: verification failed, the target was rolled back (nothing was written):\n${report.problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    process.exit(1);
  }
  console.log("db:copy: copied and verified; set DATABASE_URL to the PostgreSQL URL to use it");
  process.exit(0);
} catch (error) {
  if (error instanceof CopyRefused) fail(error.message);
  fail(
    `the copy failed, nothing was committed to the target: ${error instanceof Error ? error.message : String(error)}`,
    1,
  );
}
