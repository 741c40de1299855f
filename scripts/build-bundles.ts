// Bundles what runs outside the server's own process, each into one JavaScript file with no dependency at run time:
// - the command-line tool (cli/): what agents' hooks run on every plan and ask (tsx compiling TypeScript at each
//   start cost 0.5–1 s), and what the server hands to other machines at GET /cli/plangate.mjs;
// - the OpenCode plugin (cli/opencode-plugin.ts), the pi extension (cli/pi-extension.ts) and the Kilo, Cline and
//   Amp plugins (cli/kilo-plugin.ts, cli/cline-plugin.ts, cli/amp-plugin.ts), which the CLI carries
//   and writes where those agents load them;
// - the file worker (lib/sandbox/confined-fs/worker.ts): what does the agent's file tools' I/O inside the sandbox,
//   where only this file, Node.js and the call's folders are in view.
// Run by `npm install` (postinstall), `npm start` and the tests' global setup.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
export const CLI_BUNDLE = path.join(root, "dist", "cli", "plangate.mjs");
/** The OpenCode plugin as `plangate connect opencode` writes it, after its first line (cli/opencode-plugin-file.ts). */
export const OPENCODE_PLUGIN_BUNDLE = path.join(root, "dist", "cli", "opencode-plugin.mjs");
/** The pi extension as `plangate connect pi` writes it, after its first line (cli/pi-extension-file.ts). */
export const PI_EXTENSION_BUNDLE = path.join(root, "dist", "cli", "pi-extension.mjs");
/** The Kilo plugin as `plangate connect kilo` writes it, after its first lines (cli/kilo-plugin-file.ts). */
export const KILO_PLUGIN_BUNDLE = path.join(root, "dist", "cli", "kilo-plugin.mjs");
/** The Cline plugin as `plangate connect cline` writes it, after its first lines (cli/cline-plugin-file.ts). */
export const CLINE_PLUGIN_BUNDLE = path.join(root, "dist", "cli", "cline-plugin.mjs");
/** The Amp plugin as `plangate connect amp` writes it, after its first lines (cli/amp-plugin-file.ts). */
export const AMP_PLUGIN_BUNDLE = path.join(root, "dist", "cli", "amp-plugin.mjs");
export const FS_WORKER_DIR = path.join(root, "dist", "sandbox");
const FS_WORKER = path.join(FS_WORKER_DIR, "fs-worker.cjs");
// What the bundles are made of (cli/ imports pure modules of lib/), and the versions they were built with.
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

/** True when a bundle is missing or a source is newer than it. */
export function bundlesNeedBuild(): boolean {
  const built = Math.min(
    ...[
      CLI_BUNDLE,
      OPENCODE_PLUGIN_BUNDLE,
      PI_EXTENSION_BUNDLE,
      KILO_PLUGIN_BUNDLE,
      CLINE_PLUGIN_BUNDLE,
      AMP_PLUGIN_BUNDLE,
      FS_WORKER,
    ].map((f) => fs.statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 0),
  );
  return SOURCES.some((s) => newest(path.join(root, s)) > built);
}

/**
 * A module the CLI writes into an agent's own folders (the OpenCode plugin with the CLI's client, the pi
 * extension), readable, as the text it writes: the CLI carries it (it is also served alone to other machines), and
 * the tests read the file.
 */
async function buildCarried(entry: string, out: string): Promise<string> {
  const built = await build({
    entryPoints: [path.join(root, "cli", entry)],
    write: false,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    legalComments: "none",
    logLevel: "warning",
  });
  const text = built.outputFiles[0]?.text ?? "";
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const aside = `${out}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(aside, text);
  fs.renameSync(aside, out);
  return text;
}

export const buildOpencodePlugin = (out = OPENCODE_PLUGIN_BUNDLE) => buildCarried("opencode-plugin.ts", out);
export const buildPiExtension = (out = PI_EXTENSION_BUNDLE) => buildCarried("pi-extension.ts", out);
export const buildKiloPlugin = (out = KILO_PLUGIN_BUNDLE) => buildCarried("kilo-plugin.ts", out);
export const buildClinePlugin = (out = CLINE_PLUGIN_BUNDLE) => buildCarried("cline-plugin.ts", out);
export const buildAmpPlugin = (out = AMP_PLUGIN_BUNDLE) => buildCarried("amp-plugin.ts", out);

/**
 * Builds the bundle; returns its size in bytes. Written aside and renamed into place: builders started together
 * (instances, test workers) each put a whole file there, and a hook never runs a half-written one.
 */
export async function buildCli(out = CLI_BUNDLE): Promise<number> {
  const aside = `${out}.${process.pid}.${Date.now()}.tmp`;
  const [plugin, piExtension, kiloPlugin, clinePlugin, ampPlugin] = await Promise.all([
    buildOpencodePlugin(),
    buildPiExtension(),
    buildKiloPlugin(),
    buildClinePlugin(),
    buildAmpPlugin(),
  ]);
  await build({
    entryPoints: [path.join(root, "cli", "entry.ts")],
    outfile: aside,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // ES module builds first: jsonc-parser's CommonJS build is UMD, whose require() of its own files a bundle cannot follow.
    mainFields: ["module", "main"],
    define: {
      PLANGATE_OPENCODE_PLUGIN: JSON.stringify(plugin),
      PLANGATE_PI_EXTENSION: JSON.stringify(piExtension),
      PLANGATE_KILO_PLUGIN: JSON.stringify(kiloPlugin),
      PLANGATE_CLINE_PLUGIN: JSON.stringify(clinePlugin),
      PLANGATE_AMP_PLUGIN: JSON.stringify(ampPlugin),
    },
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

/**
 * The file worker, as CommonJS: re2-wasm finds its .wasm beside the running script (`__dirname`), so the .wasm is
 * copied next to the bundle. Written aside and renamed into place, as the CLI is.
 */
export async function buildFsWorker(dir = FS_WORKER_DIR): Promise<number> {
  fs.mkdirSync(dir, { recursive: true });
  const wasm = path.join(root, "node_modules", "re2-wasm", "build", "wasm", "re2.wasm");
  const wasmAside = path.join(dir, `re2.wasm.${process.pid}.tmp`);
  fs.copyFileSync(wasm, wasmAside);
  fs.renameSync(wasmAside, path.join(dir, "re2.wasm"));
  const out = path.join(dir, "fs-worker.cjs");
  const aside = `${out}.${process.pid}.${Date.now()}.tmp`;
  await build({
    entryPoints: [path.join(root, "lib", "sandbox", "confined-fs", "worker.ts")],
    outfile: aside,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
  });
  fs.renameSync(aside, out);
  return fs.statSync(out).size;
}

/** Every bundle; what `npm install`, `npm start` and the tests run when bundlesNeedBuild(). */
export async function buildBundles(): Promise<void> {
  const [cli, worker] = await Promise.all([buildCli(), buildFsWorker()]);
  console.log(
    `plangate: built ${path.relative(process.cwd(), CLI_BUNDLE)} (${Math.round(cli / 1024)} KiB) and ${path.relative(process.cwd(), FS_WORKER)} (${Math.round(worker / 1024)} KiB)`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await buildBundles();
