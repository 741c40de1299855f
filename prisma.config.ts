import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

// The schema's datasource names DATABASE_URL: without a value the CLI tries to download a native engine.
process.env.DATABASE_URL ??= "file:./data/plangate.db";

export default defineConfig({
  experimental: { adapter: true },
  // The js engine uses the wasm schema engine bundled with the CLI: nothing is downloaded.
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  async adapter() {
    const url = process.env.DATABASE_URL ?? "file:./data/plangate.db";
    const file = path.resolve(url.replace(/^file:/, "").split("?")[0] ?? "");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    return new PrismaBetterSQLite3({ url: `file:${file}` });
  },
});
