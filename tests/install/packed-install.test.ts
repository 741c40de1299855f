// Installed like a tool: `npm pack`, then `npm install -g` of the tarball into a fresh prefix with a fresh HOME.
// `plangate serve` from that install answers /api/health without building, keeps its data in the XDG data folder,
// prints the setup link, and the link makes the owner; `plangate connect claude-code` from the same install, then
// `--check`, runs the hook as Claude Code would and reaches the server with its agent token.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/free-port";
import { untilHealthy } from "../helpers/server";
import { TEST_PASSWORD } from "../helpers/people";

const repo = path.resolve(import.meta.dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-install-"));
let server: ChildProcess | undefined;
afterAll(() => {
  // The whole group: `plangate serve` runs the server as its child, which a SIGKILL of the CLI alone would orphan
  // (it went on serving from a deleted folder after the suite).
  if (server?.exitCode === null && server.pid !== undefined) process.kill(-server.pid, "SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The machine's npm settings a fresh HOME and prefix would lose: its cache (filled by npm ci), the headers to build
 * against, how it reaches the registry. */
function npmSetting(name: string): string | undefined {
  const v = spawnSync("npm", ["config", "get", name], { cwd: repo, encoding: "utf8" }).stdout.trim();
  return v && v !== "undefined" && v !== "null" ? v : undefined;
}

describe("the package, installed with npm install -g", () => {
  it("serves from the install with its data in ~/.local/share/plangate; the setup link makes the owner; connect --check reaches it", async () => {
    const packed = spawnSync("npm", ["pack", "--pack-destination", dir], {
      cwd: repo,
      encoding: "utf8",
      timeout: 600_000,
    });
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = path.join(dir, packed.stdout.trim().split("\n").at(-1) ?? "");
    const buildId = fs.readFileSync(path.join(repo, ".next", "BUILD_ID"), "utf8");
    expect(fs.existsSync(path.join(repo, "npm-shrinkwrap.json")), "the shrinkwrap is taken out after packing").toBe(
      false,
    );

    const home = path.join(dir, "home");
    const prefix = path.join(dir, "prefix");
    fs.mkdirSync(home);
    const cache = npmSetting("cache");
    // Native addons build against this Node's own headers (offline: node-gyp cannot download them).
    const here = path.resolve(path.dirname(process.execPath), "..");
    const nodedir =
      npmSetting("nodedir") ?? (fs.existsSync(path.join(here, "include", "node", "node.h")) ? here : undefined);
    // How this machine reaches the registry is the machine's, not Plangate's: its CA file (a global npmrc under
    // npm's own prefix, which --prefix replaces), registry and proxies go along.
    const cafile = npmSetting("cafile");
    const registry = npmSetting("registry");
    const network = ["NODE_EXTRA_CA_CERTS", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"]
      .flatMap((name) => [name, name.toLowerCase()])
      .flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []));
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      NODE_ENV: "production" as const,
      ...(cache ? { npm_config_cache: cache } : {}),
      ...(nodedir ? { npm_config_nodedir: nodedir } : {}),
      ...(cafile ? { npm_config_cafile: cafile } : {}),
      ...(registry ? { npm_config_registry: registry } : {}),
      ...Object.fromEntries(network),
    };
    const installed = spawnSync("npm", ["install", "-g", "--prefer-offline", "--prefix", prefix, tarball], {
      cwd: dir,
      env,
      encoding: "utf8",
      timeout: 900_000,
    });
    expect(installed.status, installed.stderr.slice(-3000)).toBe(0);
    const plangate = path.join(prefix, "bin", "plangate");
    const pkg = path.join(prefix, "lib", "node_modules", "plangate");

    const port = await freePort();
    let log = "";
    server = spawn(plangate, ["serve", "--port", String(port)], {
      cwd: dir,
      env: { PATH: env.PATH, HOME: home, NODE_ENV: "production" },
      detached: true,
    });
    server.stdout?.on("data", (d: Buffer) => (log += d.toString()));
    server.stderr?.on("data", (d: Buffer) => (log += d.toString()));
    const url = `http://127.0.0.1:${port}`;
    await untilHealthy(server, url, () => log, 120_000);
    // It serves the build that was packed: never rebuilt at start.
    expect(fs.readFileSync(path.join(pkg, ".next", "BUILD_ID"), "utf8")).toBe(buildId);
    const data = path.join(home, ".local", "share", "plangate");
    expect(log).toContain(`data in ${data}`);
    expect(fs.existsSync(path.join(data, "plangate.db"))).toBe(true);
    expect(fs.existsSync(path.join(pkg, "data")), "nothing is kept inside the package").toBe(false);

    const link = /http:\/\/localhost:\d+\/link\/([A-Za-z0-9_-]+)/.exec(log);
    expect(link, log).not.toBeNull();
    const made = await fetch(`${url}/api/links/${link?.[1]}`, {
      method: "POST",
      headers: { origin: url, "content-type": "application/json" },
      body: JSON.stringify({ name: "Owner", email: "owner@example.com", password: TEST_PASSWORD }),
    });
    expect(made.status, await made.clone().text()).toBe(200);

    const project = path.join(dir, "project");
    fs.mkdirSync(project);
    const run = (args: string[], input?: string) =>
      spawnSync(plangate, args, {
        cwd: project,
        env: { PATH: env.PATH, HOME: home, NODE_ENV: "production" },
        input,
        encoding: "utf8",
      });
    const unconnected = run(["connect", "claude-code", "--url", url, "--check"]);
    expect([unconnected.status, unconnected.stdout]).toEqual([1, expect.stringContaining("has no Plangate hook")]);
    const connected = run(
      ["connect", "claude-code", "--url", url, "--email", "owner@example.com", "--password-stdin"],
      `${TEST_PASSWORD}\n`,
    );
    expect(connected.status, connected.stderr).toBe(0);
    const checked = run(["connect", "claude-code", "--url", url, "--check"]);
    expect(checked.stdout).toContain(`the hook ran and reached ${url} with its agent token`);
    expect(checked.status, checked.stdout).toBe(0);
  }, 1_200_000);
});
