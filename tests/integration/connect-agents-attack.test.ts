import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// `plangate connect gemini|codex|mcp` write a hook command that a shell runs into the person's own agent settings.
// The attack: a --url that smuggles shell text into it. The effect checked absent: no marker file, no settings
// written; and a good connect quotes every word, so that the shell runs exactly Plangate's hook.
const bin = path.resolve(import.meta.dirname, "../../bin/plangate.mjs");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function place() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-connect-agents-")));
  dirs.push(root);
  const project = path.join(root, "project");
  fs.mkdirSync(project);
  return { root, project, marker: path.join(root, "PWNED"), home: path.join(root, "home") };
}

function plangate(args: string[], p: ReturnType<typeof place>) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: p.project,
    encoding: "utf8",
    env: {
      ...process.env,
      HOME: p.home,
      GEMINI_CLI_HOME: p.home,
      CODEX_HOME: path.join(p.home, ".codex"),
      XDG_CONFIG_HOME: path.join(p.root, "config"),
      PLANGATE_TOKEN: "",
    },
    timeout: 30_000,
  });
}

describe("connect gemini, codex and mcp refuse what would run elsewhere", () => {
  it.each([
    "http://127.0.0.1:3000;touch MARKER",
    "http://127.0.0.1:3000 $(touch MARKER)",
    "http://127.0.0.1:3000/'$(touch MARKER)'",
    "http://x@127.0.0.1:3000",
    "file:///etc/passwd",
  ])("--url %s is refused and nothing is written", (raw) => {
    const p = place();
    const url = raw.replace("MARKER", p.marker);
    for (const agent of ["gemini", "codex", "mcp"]) {
      const r = plangate(["connect", agent, "--url", url, "--token", "pgt_x"], p);
      expect([agent, r.status]).toEqual([agent, 2]);
      expect(r.stderr).toMatch(/--url/);
    }
    expect(fs.existsSync(path.join(p.home, ".gemini", "settings.json"))).toBe(false);
    expect(fs.existsSync(path.join(p.home, ".codex", "hooks.json"))).toBe(false);
    expect(fs.existsSync(p.marker)).toBe(false);
  });

  it("the commands written quote every word: run by a shell, they are exactly Plangate's hook (and it answers)", () => {
    const p = place();
    for (const agent of ["gemini", "codex"]) {
      const r = plangate(["connect", agent, "--url", "http://127.0.0.1:9", "--token", "pgt_x"], p);
      expect([agent, r.status, r.stderr]).toEqual([agent, 0, ""]);
    }
    const gemini = JSON.parse(fs.readFileSync(path.join(p.home, ".gemini", "settings.json"), "utf8"));
    const codex = JSON.parse(fs.readFileSync(path.join(p.home, ".codex", "hooks.json"), "utf8"));
    for (const command of [gemini.hooks.BeforeTool[0].hooks[0].command, codex.hooks.Stop[0].hooks[0].command]) {
      expect(command).toMatch(/^node '[^']+' hook (gemini|codex) --url 'http:\/\/127\.0\.0\.1:9' '--deadline' '3540'$/);
      // Run as the agent would, through a shell, in a project never connected: it answers as if it were not there.
      const run = spawnSync("sh", ["-c", command], {
        cwd: p.root,
        input: "{}",
        encoding: "utf8",
        env: { ...process.env, XDG_CONFIG_HOME: path.join(p.root, "config") },
      });
      expect(run.status).toBe(0);
    }
    expect(fs.existsSync(p.marker)).toBe(false);
    // --remove takes out only Plangate's entries and their trust.
    for (const agent of ["gemini", "codex"])
      expect(plangate(["connect", agent, "--url", "http://127.0.0.1:9", "--remove"], p).status).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(p.home, ".codex", "hooks.json"), "utf8")).hooks).toEqual({});
    expect(fs.readFileSync(path.join(p.home, ".codex", "config.toml"), "utf8")).not.toContain("hooks.state");
    expect(JSON.parse(fs.readFileSync(path.join(p.home, ".gemini", "settings.json"), "utf8")).hooks).toEqual({});
  });
});
