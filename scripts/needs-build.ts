import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { withBuildLock } from "./build-lock";

const SOURCES = [
  "app",
  "components",
  "lib",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.mjs",
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

/**
 * `next build` when sources changed since the last build, under the build lock (whoever started together waits,
 * then finds the build fresh). Null when built or fresh; else what failed (with its output when not shown).
 */
export function buildWhenStale(root: string, show: boolean): string | null {
  return withBuildLock(root, () => {
    if (!needsBuild(root)) return null;
    if (show) console.log("plangate: building (sources changed since the last build)…");
    const next = path.join(root, "node_modules", "next", "dist", "bin", "next");
    const r = spawnSync(process.execPath, [next, "build"], {
      cwd: root,
      encoding: "utf8",
      stdio: show ? "inherit" : "pipe",
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    });
    return r.status === 0 ? null : `next build failed${show ? "" : `:\n${(r.stdout + r.stderr).slice(-4000)}`}`;
  });
}
