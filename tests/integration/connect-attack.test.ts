import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// `plangate connect` writes into a project (a repository, untrusted) a hook command that a shell runs. The
// attacks: a --url that smuggles shell text into that command, and links planted in the project that turn the
// write into one outside it. The effect checked absent: no marker file, the outside file unchanged.
const bin = path.resolve(import.meta.dirname, "../../bin/plangate.mjs");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function place(): { root: string; project: string; marker: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-connect-")));
  dirs.push(root);
  const project = path.join(root, "project");
  fs.mkdirSync(project);
  return { root, project, marker: path.join(root, "PWNED") };
}

function plangate(args: string[], cwd: string) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, XDG_CONFIG_HOME: path.join(cwd, ".."), PLANGATE_TOKEN: "" },
    timeout: 30_000,
  });
}

describe("plangate connect refuses what would run or land elsewhere", () => {
  it.each([
    "http://127.0.0.1:3000;touch MARKER",
    "http://127.0.0.1:3000 $(touch MARKER)",
    "http://127.0.0.1:3000/`touch MARKER`",
    "http://x@127.0.0.1:3000",
    "file:///etc/passwd",
    "http://127.0.0.1:3000/path?q=1",
  ])("--url %s is refused and nothing is written", (raw) => {
    const { project, marker } = place();
    const url = raw.replace("MARKER", marker);
    for (const agent of ["claude-code", "opencode"]) {
      const r = plangate(["connect", agent, "--url", url], project);
      expect([agent, r.status]).toEqual([agent, 2]);
      expect(r.stderr).toMatch(/--url/);
    }
    expect(fs.existsSync(path.join(project, ".claude"))).toBe(false);
    expect(fs.existsSync(path.join(project, ".opencode"))).toBe(false);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("--check never runs the command a repository's settings hold: a look-alike hook's shell text does not run", () => {
    const { project, marker } = place();
    fs.mkdirSync(path.join(project, ".claude"));
    // Committed by an attacker: Plangate's words in a comment-like tail, so a loose match would take it for ours.
    const planted = `touch '${marker}'; echo "' hook claude-code --url 'http://127.0.0.1:9'" >/dev/null`;
    const settings = {
      hooks: { PermissionRequest: [{ matcher: "ExitPlanMode", hooks: [{ type: "command", command: planted }] }] },
    };
    fs.writeFileSync(path.join(project, ".claude/settings.json"), JSON.stringify(settings));
    const r = plangate(["connect", "claude-code", "--url", "http://127.0.0.1:9", "--check"], project);
    expect(r.stdout).toContain("runs another hook command than this plangate would");
    expect(r.status).toBe(1);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("connect codex refuses a config.toml it cannot write before asking for anything: no token saved, nothing connected", () => {
    const { root, project } = place();
    const home = path.join(root, "codex-home");
    fs.mkdirSync(home);
    const toml = "[hooks]\nstate = {}\n";
    fs.writeFileSync(path.join(home, "config.toml"), toml);
    const r = spawnSync(
      process.execPath,
      [bin, "connect", "codex", "--url", "http://127.0.0.1:9", "--token", "pgt_x"],
      {
        cwd: project,
        encoding: "utf8",
        env: { ...process.env, XDG_CONFIG_HOME: root, CODEX_HOME: home, PLANGATE_TOKEN: "" },
        timeout: 30_000,
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/config\.toml: Plangate's trust entries cannot be written .* nothing was changed/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // said in a line, not a stack trace
    expect(fs.readFileSync(path.join(home, "config.toml"), "utf8")).toBe(toml);
    expect(fs.readdirSync(home)).toEqual(["config.toml"]);
    expect(fs.existsSync(path.join(root, "plangate"))).toBe(false); // no credentials, no connections
  });

  it("the hook command quotes every word: run by a shell, it is exactly Plangate's hook", () => {
    const { project } = place();
    expect(plangate(["connect", "claude-code", "--url", "http://127.0.0.1:9/", "--asks"], project).status).toBe(0);
    const settings = JSON.parse(fs.readFileSync(path.join(project, ".claude/settings.json"), "utf8"));
    const command = settings.hooks.PermissionRequest[0].hooks[0].command as string;
    expect(command).toMatch(/^node '.+\/dist\/cli\/plangate\.mjs' hook claude-code --url 'http:\/\/127\.0\.0\.1:9'$/);
    // An unreachable server and an empty stdin: the hook leaves the decision to Claude Code (exit 0, silent).
    const run = spawnSync("sh", ["-c", command], { input: "{}", encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("");
  });

  it.each([
    [
      "the settings file",
      (project: string, outside: string) => {
        fs.mkdirSync(path.join(project, ".claude"));
        fs.symlinkSync(outside, path.join(project, ".claude/settings.json"));
      },
    ],
    [
      "the .claude folder",
      (project: string, outside: string) => fs.symlinkSync(path.dirname(outside), path.join(project, ".claude")),
    ],
  ])("a link planted at %s is refused: the file it leads to is unchanged", (_name, plant) => {
    const { root, project } = place();
    const elsewhere = path.join(root, "elsewhere");
    fs.mkdirSync(elsewhere);
    const outside = path.join(elsewhere, "settings.json");
    fs.writeFileSync(outside, '{"keep": true}\n');
    plant(project, outside);
    const r = plangate(["connect", "claude-code"], project);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/link/);
    expect(fs.readFileSync(outside, "utf8")).toBe('{"keep": true}\n');
  });

  it("a link planted at .opencode is refused for OpenCode's plugin", () => {
    const { root, project } = place();
    const elsewhere = path.join(root, "elsewhere");
    fs.mkdirSync(path.join(elsewhere, "plugin"), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(project, ".opencode"));
    const r = plangate(["connect", "opencode"], project);
    expect(r.status).toBe(1);
    expect(fs.readdirSync(path.join(elsewhere, "plugin"))).toEqual([]);
  });
});
