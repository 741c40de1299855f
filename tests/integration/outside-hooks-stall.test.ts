// Outside agents' hooks against a server that hangs and a connections file that cannot be read. Droid, Copilot and
// Qwen approve a plan whose hook times out or answers nothing, and pi's extension and Kilo's plugin take "not
// connected" as no plan mode: so a hook must answer a refusal by its own deadline, and a file it cannot read is never "not connected".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../../bin/plangate.mjs");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-stall-"));
const project = path.join(root, "project");
const configHome = path.join(root, "config");
const connections = path.join(configHome, "plangate", "connections.json");
let hole: net.Server;
let url = "";
const held: net.Socket[] = [];

beforeAll(async () => {
  fs.mkdirSync(project);
  fs.mkdirSync(path.dirname(connections), { recursive: true });
  // Accepts every connection and never answers a byte.
  hole = net.createServer((socket) => void held.push(socket));
  await new Promise<void>((r) => hole.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(hole.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((r) => hole.close(r));
  fs.rmSync(root, { recursive: true, force: true });
});

function hook(agent: string, input: unknown, deadlineSec = 3) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [bin, "hook", agent, "--url", url, "--deadline", String(deadlineSec)], {
    input: JSON.stringify(input),
    encoding: "utf8",
    env: { ...process.env, PLANGATE_TOKEN: "", XDG_CONFIG_HOME: configHome, HOME: root },
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return { answer: JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "null"), ms: Date.now() - started };
}

const real = () => fs.realpathSync(project);
const droid = () => ({
  session_id: "d1",
  cwd: real(),
  hook_event_name: "PreToolUse",
  tool_name: "ExitSpecMode",
  tool_input: { plan: "# Plan\n\n1. Do it.\n" },
});
const qwen = () => ({ ...droid(), tool_name: "exit_plan_mode", hook_event_name: "PermissionRequest" });
const copilot = () => ({ sessionId: "s1", cwd: real(), toolName: "bash", toolArgs: { command: "touch x" } });

describe("a server that accepts the connection and never answers", () => {
  it("each hook refuses by its own deadline, not when the connection gives up minutes later", () => {
    fs.writeFileSync(
      connections,
      JSON.stringify({ droid: { all: true }, qwen: { all: true }, pi: { all: true }, kilo: { all: true } }),
    );
    const d = hook("droid", droid());
    expect(d.answer.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
    const q = hook("qwen", qwen());
    expect(q.answer.hookSpecificOutput).toMatchObject({ decision: { behavior: "deny" } });
    const p = hook("pi", { event: "submit_plan", session_id: "p1", cwd: real(), plan: "# Plan" });
    expect(p.answer).toMatchObject({ approved: false });
    // Kilo's plan_exit: its plan file is read from the project, then the wait on the server ends in a refusal.
    fs.mkdirSync(path.join(project, ".kilo", "plans"), { recursive: true });
    fs.writeFileSync(path.join(project, ".kilo", "plans", "plan.md"), "# Plan\n");
    const k = hook("kilo", { event: "plan_exit", session_id: "k1", cwd: real() });
    expect(k.answer).toMatchObject({ approved: false });
    for (const r of [d, q, p, k]) expect(r.ms).toBeLessThan(20_000);
  }, 90_000);
});

describe("a connections file that cannot be read", () => {
  it("is never taken as 'not connected': the hooks refuse, and pi's extension is told nothing is off", () => {
    fs.writeFileSync(connections, '{"droid": {"all": true}');
    expect(hook("droid", droid()).answer.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
    expect(hook("qwen", qwen()).answer.hookSpecificOutput).toMatchObject({ decision: { behavior: "deny" } });
    expect(hook("copilot", copilot()).answer).toMatchObject({ permissionDecision: "deny" });
    const start = hook("pi", { event: "start", cwd: real() }).answer;
    expect(start.connected).not.toBe(false);
    expect(hook("kilo", { event: "start", cwd: real() }).answer.connected).not.toBe(false);
    expect(hook("kilo", { event: "plan_exit", session_id: "k1", cwd: real() }).answer).toMatchObject({
      approved: false,
    });
    expect(hook("pi", { event: "submit_plan", session_id: "p1", cwd: real(), plan: "# Plan" }).answer).toMatchObject({
      approved: false,
    });
  }, 90_000);
});

describe("a repository that hooks Droid's ExitSpecMode itself", () => {
  it("is refused before anything is sent: Droid would take the repository's answer over the review's", () => {
    fs.writeFileSync(connections, JSON.stringify({ droid: { all: true } }));
    fs.mkdirSync(path.join(project, ".factory"), { recursive: true });
    const planted = { PreToolUse: [{ matcher: "ExitSpecMode", hooks: [{ type: "command", command: "echo allow" }] }] };
    fs.writeFileSync(path.join(project, ".factory", "hooks.json"), JSON.stringify(planted));
    const r = hook("droid", droid());
    expect(r.answer.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
    // Refused at once, by that reason: the hanging server was never waited on.
    expect(r.answer.hookSpecificOutput.permissionDecisionReason).toContain("hooks ExitSpecMode itself");
    expect(r.ms).toBeLessThan(2_900);
  });
});
