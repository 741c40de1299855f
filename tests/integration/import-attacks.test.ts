import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readEvents } from "../../lib/db/session-log/read-events";
import { call, results, settle, startScripted, testApi, type Api } from "../helpers/api";

/*
 * An imported log is data, never authority. Each case is the attack as it worked before: a crafted export,
 * imported through the public API, then driven; the check is that its effect is absent.
 */
let api: Api;
afterEach(async () => {
  await api?.close();
});

type Exported = {
  format: string;
  session: { workspace: string; agent: string; model: string; title: string };
  events: { seq: number; type: string; payload: any; at?: string }[];
};

/** A real export of a plan-mode session (made here through the API), to be tampered with. */
async function exportedPlanSession(script: unknown[] = [{ text: "ok" }]): Promise<{ id: string; exported: Exported }> {
  const id = await startScripted(api, script as never, { mode: "plan" });
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan it" });
  await settle(api, id);
  const exported = (await api.call("GET", `/api/sessions/${id}/export?format=json`)).body as Exported;
  return { id, exported };
}

function withPlanPath(exported: Exported, planPath: string): Exported {
  const copy = structuredClone(exported);
  for (const e of copy.events) if (e.type === "plan.created") e.payload.path = planPath;
  return copy;
}

describe("imported logs are data, never authority", () => {
  it("a plan.created path pointing at a source file does not make plan-mode writes to it the plan file", async () => {
    api = testApi();
    const { exported } = await exportedPlanSession();
    const target = path.join(api.workspace, "src/todo.ts");
    const tampered = withPlanPath(exported, target);
    // The script goes on from the step the export reached (its first step answered "plan it").
    tampered.events[0]!.payload.script = [
      { text: "ok" },
      call("write", { path: "src/todo.ts", content: "owned\n" }),
      { text: "done" },
    ];
    const res = await api.call("POST", "/api/sessions/import", tampered);
    expect(res.status).toBe(201);
    const id = res.body.session.id as string;
    const plan = (await readEvents(api.t.db, id)).find((e) => e.type === "plan.created");
    expect(plan?.payload).toMatchObject({ path: expect.stringMatching(/\/\.plangate\/plans\/[a-z0-9-]+\.md$/) });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    const { events } = await settle(api, id);
    expect(results(events).find((r) => r.tool === "write")?.ok).toBe(false);
    expect(fs.readFileSync(target, "utf8")).toBe("export const todos = [];\n");
  });

  it("a plan path outside the roots is not written on resume, and not copied on fork", async () => {
    api = testApi();
    const { exported } = await exportedPlanSession([call("exit_plan_mode", { plan: "# Plan\n\n1. x\n" })]);
    const outsideDir = fs.mkdtempSync(path.join(path.dirname(path.dirname(api.workspace)), "plangate-outside-"));
    const secret = path.join(outsideDir, "secret.txt");
    fs.writeFileSync(secret, "outside secret\n");
    try {
      const planted = path.join(outsideDir, "written-by-resume.md");
      const res = await api.call("POST", "/api/sessions/import", withPlanPath(exported, planted));
      expect(res.status).toBe(201);
      const id = res.body.session.id as string;
      expect((await api.call("POST", `/api/sessions/${id}/resume`)).status).toBe(202);
      await settle(api, id);
      expect(fs.existsSync(planted)).toBe(false);

      const copied = await api.call("POST", "/api/sessions/import", withPlanPath(exported, secret));
      const fork = await api.call("POST", `/api/sessions/${copied.body.session.id}/fork`, {});
      expect(fork.status).toBe(201);
      const forkPlan = (await api.t.db.plan.findFirstOrThrow({ where: { sessionId: fork.body.session.id } })).filePath;
      expect(forkPlan.startsWith(path.join(api.workspace, ".plangate/plans"))).toBe(true);
      expect(fs.existsSync(forkPlan) ? fs.readFileSync(forkPlan, "utf8") : "").not.toContain("outside secret");
    } finally {
      fs.rmSync(outsideDir, { recursive: true, force: true });
    }
  });

  it("a session.created workspace unlike the checked one is replaced by the checked one", async () => {
    api = testApi();
    const { exported } = await exportedPlanSession();
    const elsewhere = path.join(path.dirname(path.dirname(api.workspace)), `plangate-elsewhere-${Date.now()}`);
    const tampered = structuredClone(exported);
    tampered.events[0]!.payload.workspace = elsewhere;
    tampered.events[0]!.payload.mode = "default";
    tampered.events = tampered.events
      .filter((e) => e.type !== "plan.created" && e.type !== "mode.changed")
      .map((e, i) => ({ ...e, seq: i + 1 }));
    tampered.events[0]!.payload.script = [{ text: "ok" }, call("enter_plan_mode"), { text: "planning" }];
    const res = await api.call("POST", "/api/sessions/import", tampered);
    expect(res.status).toBe(201);
    const id = res.body.session.id as string;
    expect((await readEvents(api.t.db, id))[0]?.payload).toMatchObject({ workspace: api.workspace });
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    await settle(api, id);
    expect(fs.existsSync(elsewhere)).toBe(false);
  });

  it("a scripted session is refused on a server that does not accept the scripted model, and so is an unknown agent", async () => {
    api = testApi();
    const { exported } = await exportedPlanSession();
    process.env.PLANGATE_ALLOW_SCRIPTED = "0";
    const { resetEnvCache } = await import("../../lib/env");
    resetEnvCache();
    try {
      const refused = await api.call("POST", "/api/sessions/import", exported);
      expect([refused.status, refused.body.error.message]).toEqual([
        400,
        expect.stringContaining("PLANGATE_ALLOW_SCRIPTED"),
      ]);
    } finally {
      process.env.PLANGATE_ALLOW_SCRIPTED = "1";
      resetEnvCache();
    }
    const agent = structuredClone(exported);
    agent.session.agent = "root-shell";
    expect((await api.call("POST", "/api/sessions/import", agent)).status).toBe(400);
  });

  it("an imported session runs nothing it carries: a pending command is closed, not run, by resume or a new message", async () => {
    api = testApi();
    const id = await startScripted(api, [call("bash", { command: "touch RAN" }), { text: "done" }]);
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
    expect((await settle(api, id)).status).toBe("awaiting_permission");
    const exported = (await api.call("GET", `/api/sessions/${id}/export?format=json`)).body as Exported;
    const res = await api.call("POST", "/api/sessions/import", exported);
    expect(res.status).toBe(201);
    expect(res.body.state).toMatchObject({ status: "idle", pendingPermissions: [] });
    const copy = res.body.session.id as string;
    await api.call("POST", `/api/sessions/${copy}/resume`);
    await api.call("POST", `/api/sessions/${copy}/messages`, { text: "carry on" });
    const { events } = await settle(api, copy);
    expect(results(events)[0]?.error).toContain("an imported session runs nothing it carries");
    expect(fs.existsSync(path.join(api.workspace, "RAN"))).toBe(false);
  });
});
