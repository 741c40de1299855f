import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { options, UsageError } from "../../cli/options";

// Every `plangate` command reads its options strictly (node:util's parseArgs): an option it does not take, a
// missing value or a stray word is refused with its name, before anything is written or sent.
const bin = path.resolve(import.meta.dirname, "../../bin/plangate.mjs");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const SPEC = {
  url: { type: "string" },
  remove: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

describe("options", () => {
  it.each<[string[], Record<string, unknown>]>([
    [[], {}],
    [["--url", "http://127.0.0.1:9", "--remove"], { url: "http://127.0.0.1:9", remove: true }],
    [["--url=http://127.0.0.1:9"], { url: "http://127.0.0.1:9" }],
    [["--url="], { url: "" }],
    [["-h"], { help: true }],
  ])("reads %j", (args, want) => {
    expect({ ...options(args, SPEC) }).toEqual(want);
  });

  it.each<[string[], string]>([
    [["--frobnicate"], "unknown argument --frobnicate"],
    [["-x"], "unknown argument -x"],
    [["--url"], "--url needs a value"],
    [["--url", "--remove"], '--url needs a value (one that starts with "-" is written --url=-…)'],
    [["--remove=yes"], "--remove takes no value"],
    [["--help=1"], "--help takes no value"],
    [["stray"], 'unexpected argument "stray"'],
  ])("refuses %j: %s", (args, message) => {
    expect(() => options(args, SPEC)).toThrow(UsageError);
    expect(() => options(args, SPEC)).toThrow(message);
  });
});

function plangate(args: string[], cwd: string) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd,
    input: "{}",
    encoding: "utf8",
    env: { ...process.env, XDG_CONFIG_HOME: path.join(cwd, ".config"), PLANGATE_TOKEN: "" },
    timeout: 30_000,
  });
}

function project(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-cli-")));
  dirs.push(dir);
  return dir;
}

describe("the commands refuse an option they do not take", () => {
  it.each([
    [["connect", "claude-code", "--url", "http://127.0.0.1:9", "--frobnicate"], "unknown argument --frobnicate"],
    [["connect", "claude-code", "--url"], "--url needs a value"],
    [["connect", "claude-code", "--asks=yes"], "--asks takes no value"],
    [["connect", "opencode", "--scope", "user"], "unknown argument --scope"],
    [["connect", "opencode", "extra"], 'unexpected argument "extra"'],
  ])("%j: exit 2, the option named, nothing written", (args, message) => {
    const dir = project();
    const r = plangate(args, dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain(`usage: plangate connect ${args[1]}`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("the hook names the bad option and exits 1, which leaves the request to Claude Code's own dialog", () => {
    const r = plangate(["hook", "claude-code", "--url", "http://127.0.0.1:9", "--frobnicate"], project());
    // Exit 2 would deny the request in Claude Code: a broken hook command must not decide anything.
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("plangate: unknown argument --frobnicate");
    expect(r.stdout).toBe("");
  });
});
