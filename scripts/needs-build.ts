import fs from "node:fs";
import path from "node:path";

const SOURCES = [
  "app",
  "components",
  "lib",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.ts",
  "package.json",
  "postcss.config.mjs",
  "tsconfig.json",
];
const SKIP = new Set(["node_modules", ".next", "generated", "generated-kysely", "data"]);

function newestMtime(target: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) {
    if (SKIP.has(entry) || entry.endsWith(".test.ts")) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** True when there is no production build or a source file is newer than it. */
export function needsBuild(root: string): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}
