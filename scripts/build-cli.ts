// Bundles the command-line tool (cli/) into one JavaScript file with no dependency at run time: what agents'
// hooks run on every plan and ask (tsx compiling TypeScript at each start cost 0.5–1 s), and what the server
// hands to other machines at GET /cli/plangate.mjs. Run by `npm install` (postinstall) and `npm start`.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
export const CLI_BUNDLE = path.join(root, "dist", "cli", "plangate.mjs");
// What the bundle is made of (cli/ imports pure modules of lib/), and the versions it was built with.
const SOURCES = ["cli", "lib", "package.json"];

function newest(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let n = 0;
  for (const entry of fs.readdirSync(target))
    if (entry !== "generated" && entry !== "node_modules" && !entry.endsWith(".test.ts"))
      n = Math.max(n, newest(path.join(target, entry)));
  return n;
}

/** True when the bundle is missing or a source is newer than it. */
export function cliNeedsBuild(): boolean {
  const built = fs.statSync(CLI_BUNDLE, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return SOURCES.some((s) => newest(path.join(root, s)) > built);
}

/**
 * Builds the bundle; returns its size in bytes. Written aside and renamed into place: builders started together
 * (instances, test workers) each put a whole file there, and a hook never runs a half-written one.
 */
export async function buildCli(out = CLI_BUNDLE): Promise<number> {
  const aside = `${out}.${process.pid}.${Date.now()}.tmp`;
  await build({
    entryPoints: [path.join(root, "cli", "entry.ts")],
    outfile: aside,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // ES module builds first: jsonc-parser's CommonJS build is UMD, whose require() of its own files a bundle cannot follow.
    mainFields: ["module", "main"],
    minify: true,
    legalComments: "none",
    // Bundled CommonJS packages call require() for Node's own modules; an ES module has none of its own.
    banner: {
      js: '#!/usr/bin/env node\nimport { createRequire as __plangateRequire } from "node:module";\nconst require = __plangateRequire(import.meta.url);',
    },
    logLevel: "warning",
  });
  fs.chmodSync(aside, 0o755);
  fs.renameSync(aside, out);
  return fs.statSync(out).size;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const size = await buildCli();
  console.log(`plangate: built ${path.relative(process.cwd(), CLI_BUNDLE)} (${Math.round(size / 1024)} KiB)`);
}
