import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";

// The schema's datasource names DATABASE_URL: without a value the CLI tries to download a native engine.
process.env.DATABASE_URL ??= "file:./data/plangate.db";
const url = process.env.DATABASE_URL;
const postgres = /^postgres(ql)?:\/\//.test(url);

export default defineConfig({
  experimental: { adapter: true },
  // The js engine uses the wasm schema engine bundled with the CLI: nothing is downloaded.
  engine: "js",
  // One schema per provider (prisma/postgres/schema.prisma is generated from prisma/schema.prisma), picked by the URL.
  schema: postgres ? path.join("prisma", "postgres", "schema.prisma") : path.join("prisma", "schema.prisma"),
  async adapter() {
    if (postgres) return new PrismaPg({ connectionString: url });
    const file = path.resolve(url.replace(/^file:/, "").split("?")[0] ?? "");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return new PrismaBetterSQLite3({ url: `file:${file}` });
  },
});
