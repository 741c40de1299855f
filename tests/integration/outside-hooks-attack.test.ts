// Gemini CLI's and Codex's hooks as the attack and the accident: a hook that fails open would approve, so every
// case below ends in an explicit answer, and what must not reach the server never does (a listener that counts).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../../bin/plangate.mjs");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-hooks-"));
const folder = (name: string) => {
  fs.mkdirSync(path.join(root, name));
  return fs.realpathSync(path.join(root, name));
};
const project = folder("project");
const stranger = folder("elsewhere");
const plans = path.join(root, "plans");
const configHome = path.join(root, "config");
let hits = 0;
let listener: http.Server;
let url = "";
const dead = "http://127.0.0.1:9";

beforeAll(async () => {
  listener = http.createServer((_req, res) => {
    hits += 1;
    res.writeHead(503).end();
  });
  await new Promise<void>((r) => listener.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(listener.address() as { port: number }).port}`;
  fs.mkdirSync(plans);
  fs.writeFileSync(path.join(plans, "plan.md"), "# Plan\n\n1. Do it.\n");
  fs.writeFileSync(path.join(root, "secret.md"), "TOP SECRET\n");
  fs.mkdirSync(path.join(configHome, "plangate"), { recursive: true });
  fs.writeFileSync(
    path.join(configHome, "plangate", "connections.json"),
    JSON.stringify({ gemini: { projects: [project] }, codex: { projects: [project] } }),
  );
});
afterAll(async () => {
  await new Promise((r) => listener.close(r));
  fs.rmSync(root, { recursive: true, force: true });
});

function hook(agent: string, server: string, input: unknown) {
  const r = spawnSync(process.execPath, [bin, "hook", agent, "--url", server, "--deadline", "20"], {
    input: typeof input === "string" ? input : JSON.stringify(input),
    encoding: "utf8",
    env: { ...process.env, PLANGATE_TOKEN: "", XDG_CONFIG_HOME: configHome, GEMINI_PLANS_DIR: plans },
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "null") as Record<string, unknown>;
}

const gemini = (cwd: string, tool: string, toolInput: Record<string, unknown>, event = "BeforeTool") => ({
  session_id: "g1",
  cwd,
  hook_event_name: event,
  tool_name: tool,
  tool_input: toolInput,
});
const codexStop = (cwd: string, message: string) => ({
  session_id: "c1",
  turn_id: "t1",
  cwd,
  hook_event_name: "Stop",
  stop_hook_active: false,
  last_assistant_message: message,
});

describe("Gemini CLI's hook", () => {
  it("in a project never connected: answers as if no hook ran, and asks the server nothing", () => {
    const before = hits;
    expect(hook("gemini", url, gemini(stranger, "exit_plan_mode", { plan_filename: "plan.md" }))).toEqual({});
    expect(hits).toBe(before);
  });

  it("a plan file named outside Gemini's plans folder is refused, and its contents go nowhere", () => {
    const before = hits;
    for (const name of ["../secret.md", path.join(root, "secret.md")]) {
      const out = hook("gemini", url, gemini(project, "exit_plan_mode", { plan_filename: name }));
      expect(out.decision).toBe("deny");
      expect(String(out.reason)).not.toContain("TOP SECRET");
    }
    expect(hits).toBe(before);
  });

  it("a server that cannot be reached refuses the plan in a headless run, naming the server", () => {
    const out = hook("gemini", dead, gemini(project, "exit_plan_mode", { plan_filename: "plan.md" }));
    expect(out).toMatchObject({ decision: "deny" });
    expect(String(out.reason)).toContain(dead);
  });

  it("what it cannot read is refused, never let through (Gemini runs a tool whose hook failed)", () => {
    expect(hook("gemini", url, "{not json").decision).toBe("deny");
    expect(hook("gemini", url, { hook_event_name: "BeforeTool" }).decision).toBe("deny");
  });

  it("an ask Plangate cannot answer is refused in a headless run", () => {
    const out = hook("gemini", dead, gemini(project, "run_shell_command", { command: "rm -rf /" }));
    expect(out.decision).toBe("deny");
  });
});

describe("Codex's hook", () => {
  it("a turn that proposed no plan ends as it would, and the server hears nothing", () => {
    const before = hits;
    expect(hook("codex", url, codexStop(project, "All done, nothing to plan."))).toEqual({});
    expect(hits).toBe(before);
  });

  it("in a project never connected: answers as if no hook ran", () => {
    const before = hits;
    expect(hook("codex", url, codexStop(stranger, "<proposed_plan>\n# P\n</proposed_plan>"))).toEqual({});
    expect(hits).toBe(before);
  });

  it("a plan nobody could review stops the turn (never an approval), naming the server", () => {
    const out = hook("codex", dead, codexStop(project, "<proposed_plan>\n# P\n1. x\n</proposed_plan>"));
    expect(out.continue).toBe(false);
    expect(String(out.stopReason)).toContain(dead);
  });
});
