// Which file Kilo's plan_exit puts on the desk, attacked through the hook (`plangate hook kilo`) with the inputs
// Plangate's plugin sends: only a real plan file of this session in the project's .kilo/plans is read, never another
// session's newer plan, a hard link to a secret, a plan folder that is a link, or a name that is a path.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../../bin/plangate.mjs");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "plangate-kilo-plan-"));
const configHome = path.join(root, "config");
const received: string[] = [];
let server: http.Server;
let url = "";

// Stands in for Plangate: records each plan, and approves it at once.
beforeAll(async () => {
  fs.mkdirSync(path.join(configHome, "plangate"), { recursive: true });
  fs.writeFileSync(path.join(configHome, "plangate", "connections.json"), JSON.stringify({ kilo: { all: true } }));
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.method === "POST") {
        received.push((JSON.parse(body) as { plan: string }).plan);
        res.writeHead(201).end(JSON.stringify({ reviewId: "rev_1" }));
      } else
        res.end(
          JSON.stringify({ status: "approved", plan: received.at(-1), edited: false, mode: "default", message: null }),
        );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(root, { recursive: true, force: true });
});

function project(name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, ".kilo", "plans"), { recursive: true });
  return fs.realpathSync(dir);
}

/** The hook's answer; run apart from this process, whose event loop serves the stand-in meanwhile. */
async function planExit(cwd: string, more: Record<string, unknown>) {
  const input = { event: "plan_exit", session_id: "ses_A", cwd, worktree: cwd, ...more };
  const child = spawn(process.execPath, [bin, "hook", "kilo", "--url", url, "--deadline", "10"], {
    env: { ...process.env, PLANGATE_TOKEN: "pgt_test", XDG_CONFIG_HOME: configHome, HOME: root },
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stdin.end(JSON.stringify(input));
  expect(await new Promise((r) => child.on("close", r))).toBe(0);
  return JSON.parse(out.trim().split("\n").at(-1) ?? "null") as { approved: boolean; error?: string; file?: string };
}

describe("the plan file a Kilo plan_exit puts on the desk", () => {
  it("is this session's own plan, not another session's newer one", async () => {
    const cwd = project("two-sessions");
    fs.writeFileSync(path.join(cwd, ".kilo", "plans", "1000-a.md"), "# Session A's plan\n");
    fs.writeFileSync(path.join(cwd, ".kilo", "plans", "2000-b.md"), "# Session B's plan\n");
    const answer = await planExit(cwd, { session_plan: "1000-a.md" });
    expect(answer, JSON.stringify(answer)).toMatchObject({
      approved: true,
      file: path.join(cwd, ".kilo", "plans", "1000-a.md"),
    });
    expect(received.at(-1)).toBe("# Session A's plan\n");
    // With neither a path nor the session's name, nothing is guessed.
    expect(await planExit(cwd, {})).toMatchObject({ approved: false });
  });

  it("is never a hard link to a secret, nor read through a plan folder that is a link", async () => {
    const cwd = project("links");
    const secret = path.join(root, "credentials.json");
    fs.writeFileSync(secret, '{"token":"pgt_SECRET"}');
    fs.linkSync(secret, path.join(cwd, ".kilo", "plans", "notes.md"));
    expect(await planExit(cwd, { path: ".kilo/plans/notes.md" })).toMatchObject({ approved: false });
    const elsewhere = path.join(root, "elsewhere");
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(elsewhere, "plan.md"), "# Not in the project\n");
    const linked = project("linked-plans");
    fs.rmSync(path.join(linked, ".kilo", "plans"), { recursive: true });
    fs.symlinkSync(elsewhere, path.join(linked, ".kilo", "plans"));
    expect(await planExit(linked, { path: ".kilo/plans/plan.md" })).toMatchObject({ approved: false });
    expect(received.join("")).not.toContain("pgt_SECRET");
    expect(received.join("")).not.toContain("Not in the project");
  });

  it("is never a name that is a path", async () => {
    const cwd = project("names");
    fs.writeFileSync(path.join(cwd, "README.md"), "# Readme\n");
    const answer = await planExit(cwd, { session_plan: "../../README.md" });
    expect(answer.approved).toBe(false);
    expect(received.join("")).not.toContain("# Readme");
  });
});
