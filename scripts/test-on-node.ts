// Runs the quick suites (npm run test:quick: unit and SQLite integration) once more on another Node.js major, as
// CI does for the newest LTS: `npm run test:node24`. Node comes from the npm registry's node-<platform>-<arch>
// package (binary and headers), kept under node_modules/.cache; better-sqlite3 is compiled against those headers
// once, and its addon is swapped in for the run and put back after, so this checkout's own Node keeps working.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const major = process.argv[2] ?? "24";
if (!/^\d+$/.test(major)) throw new Error(`usage: tsx scripts/test-on-node.ts <major> (got ${major})`);
const cache = path.join(root, "node_modules", ".cache", "plangate-node", major);
const addon = path.join(root, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node");
const ownAddon = `${addon}.own-node`;

function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const r = spawnSync(cmd, args, { cwd: opts.cwd ?? root, env: opts.env ?? process.env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}):\n${r.stderr || r.stdout}`);
  return r.stdout;
}

/** Node <major>'s folder (bin/node, include/node), unpacked from the registry's package on first use. */
function nodeFolder(): string {
  const dir = path.join(cache, "node");
  if (fs.existsSync(path.join(dir, "bin", "node"))) return dir;
  fs.mkdirSync(cache, { recursive: true });
  const pkg = `node-${process.platform}-${process.arch}@${major}`;
  console.log(`test-on-node: fetching ${pkg} from the npm registry`);
  const tarball = run("npm", ["pack", pkg, "--pack-destination", cache, "--silent"]).trim().split("\n").pop();
  if (!tarball) throw new Error(`npm pack ${pkg} named no file`);
  const unpacked = path.join(cache, "package");
  fs.rmSync(unpacked, { recursive: true, force: true });
  run("tar", ["-xzf", path.join(cache, tarball), "-C", cache]);
  fs.rmSync(path.join(cache, tarball));
  fs.renameSync(unpacked, dir);
  return dir;
}

/** better-sqlite3's addon built for that Node, rebuilt when either version changes. */
function addonFor(nodeDir: string, nodeVersion: string): string {
  const own = path.join(root, "node_modules", "better-sqlite3");
  const { version } = JSON.parse(fs.readFileSync(path.join(own, "package.json"), "utf8")) as { version: string };
  const copy = path.join(cache, "better-sqlite3");
  const built = path.join(copy, "build", "Release", "better_sqlite3.node");
  const stamp = path.join(cache, "better-sqlite3.stamp");
  const want = `${version} ${nodeVersion}`;
  if (fs.existsSync(built) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === want) return built;
  console.log(`test-on-node: compiling better-sqlite3 ${version} for Node ${nodeVersion}`);
  fs.rmSync(copy, { recursive: true, force: true });
  fs.cpSync(own, copy, { recursive: true, filter: (src) => !src.startsWith(path.join(own, "build")) });
  // npm puts its own node-gyp on the script's PATH; the headers are the ones that Node ships.
  run("npm", ["run", "build-release", "--silent"], {
    cwd: copy,
    env: { ...process.env, PATH: `${path.join(nodeDir, "bin")}:${process.env.PATH}`, npm_config_nodedir: nodeDir },
  });
  fs.writeFileSync(stamp, want);
  return built;
}

/** Puts this checkout's own addon back (also after a run that was killed before it could). */
function restoreOwnAddon(): void {
  if (fs.existsSync(ownAddon)) fs.renameSync(ownAddon, addon);
}

restoreOwnAddon();
const nodeDir = nodeFolder();
const nodeVersion = run(path.join(nodeDir, "bin", "node"), ["--version"]).trim();
const built = addonFor(nodeDir, nodeVersion);
// Renamed, never rewritten in place: a process that has the addon loaded keeps the file it mapped.
fs.renameSync(addon, ownAddon);
let status = 1;
try {
  fs.copyFileSync(built, `${addon}.next`);
  fs.renameSync(`${addon}.next`, addon);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => undefined);
  console.log(`test-on-node: npm run test:quick on Node ${nodeVersion}`);
  // Every `node` the suites start (the CLI as agents run it, the servers) is this one too.
  const r = spawnSync("npm", ["run", "test:quick", "--", ...process.argv.slice(3)], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PATH: `${path.join(nodeDir, "bin")}:${process.env.PATH}` },
  });
  status = r.status ?? 1;
} finally {
  restoreOwnAddon();
}
process.exit(status);
