import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { results, settle, testApi, type Api, call, startScripted, type Step } from "../helpers/api";
import { readEvents } from "../../lib/db/session-log/read-events";
import type { EventPayload, EventType, SessionEvent } from "../../lib/session/log/events";

let api: Api;
const cleanup: string[] = [];
afterEach(async () => {
  await api?.close();
  for (const dir of cleanup.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const PLAN = "# Plan: rename the todo list\n\n1. Rename todos to items.\n2. Update the README.\n";
const PLANS = path.join(".plangate", "plans");

function ofType<T extends EventType>(events: SessionEvent[], type: T): EventPayload<T>[] {
  return events.flatMap((e) => (e.type === type ? [e.payload as EventPayload<T>] : []));
}

/** Every path below root (but the plans folder) with its type, mode and bytes or link target, .git included. */
function workspaceHash(root: string): string {
  const hash = createHash("sha256");
  const visit = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const rel = path.relative(root, full);
      if (rel === PLANS) continue;
      const st = fs.lstatSync(full);
      hash.update(`${rel}\0${st.mode}\0`);
      if (st.isSymbolicLink()) hash.update(`link:${fs.readlinkSync(full)}\0`);
      else if (st.isFile()) hash.update(fs.readFileSync(full)).update("\0");
      else if (st.isDirectory()) visit(full);
    }
  };
  visit(root);
  return hash.digest("hex");
}

function git(cwd: string, ...args: string[]) {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}

async function say(id: string, text = "go") {
  const res = await api.call("POST", `/api/sessions/${id}/messages`, { text });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body as { turn: unknown; command?: { outcome: string } };
}

describe("plan mode boundary", () => {
  it("in plan mode every write path other than the plan file is denied", async () => {
    api = testApi({
      files: {
        "README.md": "# Demo\n\nalpha beta gamma\n",
        "src/todo.ts": "export const todos = [];\n",
        "src/nested/b.txt": "bravo\n",
      },
    });
    const ws = api.workspace;
    git(ws, "init", "-q");
    git(ws, "add", "-A");
    git(ws, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "-m", "initial commit");

    const attempts: [label: string, step: Step][] = [
      ["edit README.md", call("edit", { path: "README.md", oldString: "alpha", newString: "omega" })],
      ["write src/x.ts", call("write", { path: "src/x.ts", content: "export const x = 1;\n" })],
      ["write ../escape.txt", call("write", { path: "../escape.txt", content: "escaped\n" })],
      [
        "apply_patch modify README.md",
        call("apply_patch", {
          patch:
            "--- a/README.md\n+++ b/README.md\n@@ -1,3 +1,3 @@\n # Demo\n \n-alpha beta gamma\n+alpha beta delta\n",
        }),
      ],
      [
        "apply_patch create src/new.ts",
        call("apply_patch", { patch: "--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1 @@\n+export const fresh = true;\n" }),
      ],
      ["bash echo x > a.txt", call("bash", { command: "echo x > a.txt" })],
      ["bash sed -i", call("bash", { command: "sed -i s/a/b/ README.md" })],
      ["bash rm -rf src", call("bash", { command: "rm -rf src" })],
      [
        "task general",
        call("task", {
          agent: "general",
          prompt: "edit things",
          script: [
            call("write", { path: "src/child.ts", content: "x\n" }),
            call("edit", { path: "README.md", oldString: "alpha", newString: "child" }),
            { text: "child done" },
          ],
        }),
      ],
    ];
    const id = await startScripted(
      api,
      [...attempts.map(([, step]) => step), call("exit_plan_mode", { plan: PLAN }), { text: "end" }],
      { mode: "plan" },
    );
    const plan = await api.t.db.plan.findFirst({ where: { sessionId: id } });
    expect(plan?.filePath.startsWith(path.join(ws, PLANS) + path.sep)).toBe(true);
    const baseline = workspaceHash(ws);

    await say(id, "rename the todo list");
    const { status, events } = await settle(api, id);
    expect(status).toBe("awaiting_review");

    const got = results(events);
    expect(got.map((r) => r.tool)).toEqual([...attempts.map(([, s]) => s.toolCalls![0]!.name)]);
    attempts.forEach(([label], i) => {
      const r = got[i]!;
      if (r.tool === "bash") {
        // Bash may run (read-only sandbox) but must show that it could not write.
        const meta = (r.metadata ?? {}) as { exitCode?: number | null };
        const couldNotWrite = !r.ok || (/Read-only file system/.test(String(r.output)) && meta.exitCode !== 0);
        expect(couldNotWrite, `${label}: ${JSON.stringify(r)}`).toBe(true);
      } else {
        expect(r.ok, `${label}: ${JSON.stringify(r)}`).toBe(false);
        expect(r.error, label).toMatch(/Permission denied|plan mode|read-only/);
      }
    });
    expect(await api.t.db.session.count({ where: { parentId: id } })).toBe(0);
    expect(ofType(events, "permission.asked")).toEqual([]);

    expect(workspaceHash(ws)).toBe(baseline);
    expect(fs.existsSync(path.join(path.dirname(ws), "escape.txt"))).toBe(false);
    expect(fs.readFileSync(plan!.filePath, "utf8")).toBe(PLAN);
    const reviews = await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`);
    expect(reviews.body.reviews).toEqual([expect.objectContaining({ kind: "plan-review" })]);
    expect((await api.call("GET", `/api/sessions/${id}`)).body.state.mode).toBe("plan");
  });

  type DirCase = { name: string; setup: (ws: string) => string };
  it.each<DirCase>([
    { name: "a relative path leaving the workspace", setup: () => "../outside" },
    {
      name: "an absolute path outside the workspace",
      setup: () => {
        const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-plans-outside-")));
        cleanup.push(dir);
        return dir;
      },
    },
    {
      name: "a symlink inside the workspace pointing outside",
      setup: (ws) => {
        const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-plans-link-")));
        cleanup.push(dir);
        fs.symlinkSync(dir, path.join(ws, "plans-link"));
        return "plans-link";
      },
    },
  ])(
    "plansDirectory refused ($name): a warning notice is logged and the plan lands in <workspace>/.plangate/plans",
    async ({ setup }) => {
      api = testApi({ files: { "README.md": "# Demo\n" } });
      const ws = api.workspace;
      const configured = setup(ws);
      fs.mkdirSync(path.join(ws, ".plangate"), { recursive: true });
      fs.writeFileSync(path.join(ws, ".plangate", "config.json"), JSON.stringify({ plansDirectory: configured }));
      const outside = path.resolve(ws, configured);
      const outsideBefore = fs.existsSync(outside) ? fs.readdirSync(outside) : null;

      const id = await startScripted(api, [call("exit_plan_mode", { plan: PLAN }), { text: "end" }]);
      expect((await say(id, "/plan")).command?.outcome).toBe("committed");
      const events = await readEvents(api.t.db, id);
      const notices = ofType(events, "notice");
      expect(notices).toEqual([expect.objectContaining({ level: "warning" })]);
      expect(notices[0]!.text).toContain("plansDirectory");
      const [created] = ofType(events, "plan.created");
      expect(created?.path.startsWith(path.join(ws, PLANS) + path.sep)).toBe(true);
      const order = events.map((e) => e.type);
      expect(order.indexOf("notice")).toBeLessThan(order.indexOf("plan.created"));

      await say(id, "go");
      expect((await settle(api, id)).status).toBe("awaiting_review");
      expect(fs.realpathSync(created!.path)).toBe(created!.path);
      expect(fs.readFileSync(created!.path, "utf8")).toBe(PLAN);
      expect(fs.existsSync(outside) ? fs.readdirSync(outside) : null).toEqual(outsideBefore);
    },
  );
});

describe("a mode switch inside one model step", () => {
  it("judges the calls after enter_plan_mode in the same step under plan mode", async () => {
    api = testApi();
    const id = await startScripted(api, [
      {
        toolCalls: [
          { name: "enter_plan_mode", input: {} },
          { name: "write", input: { path: "sneaky.txt", content: "x" } },
        ],
      },
      { text: "ok" },
    ]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const { events } = await settle(api, id);
    const write = results(events).find((r) => r.tool === "write");
    expect(write).toMatchObject({ ok: false, error: expect.stringMatching(/Permission denied[\s\S]*plan mode/) });
    expect(fs.existsSync(path.join(api.workspace, "sneaky.txt"))).toBe(false);
  });
});
