import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, results, settle, startScripted, testApi, type Api } from "../helpers/api";

/*
 * Plan files are written without following links. A cloned repository can plant a symlink or a hard link at
 * the plan path (or make the plans folder a link): the plan-mode write and exit_plan_mode must then neither
 * change the link's target nor read it as the plan.
 */
let api: Api;
afterEach(async () => {
  await api?.close();
});

const SOURCE = "export const todos = [];\n";

/** A plan-mode session whose plan path is known before its first message, with `plant` run on that path. */
async function planned(
  script: Parameters<typeof startScripted>[1],
  plant: (planPath: string) => void,
): Promise<{ id: string; planPath: string }> {
  const id = await startScripted(api, script, { mode: "plan" });
  const planPath = (await api.t.db.plan.findFirstOrThrow({ where: { sessionId: id } })).filePath;
  plant(planPath);
  await api.call("POST", `/api/sessions/${id}/messages`, { text: "plan" });
  return { id, planPath };
}

describe("plan files are written without following links", () => {
  it("a symlink at the plan path to a source file: the plan-mode write is refused and the source is unchanged", async () => {
    api = testApi();
    const source = path.join(api.workspace, "src/todo.ts");
    const { id } = await planned(
      [
        { toolCalls: [{ name: "write", input: { path: ".plangate/plans/x.md", content: "owned\n" } }] },
        { text: "done" },
      ],
      (p) => {
        fs.symlinkSync(source, p);
        // The write names the plan path through a second name, so the call is about the planted link itself.
        fs.symlinkSync(path.basename(p), path.join(path.dirname(p), "x.md"));
      },
    );
    const { events } = await settle(api, id);
    expect(results(events)[0]?.ok).toBe(false);
    expect(fs.readFileSync(source, "utf8")).toBe(SOURCE);
  });

  it("exit_plan_mode replaces a symlink to an outside file, or a dangling one, by a fresh plan file; the outside is untouched", async () => {
    api = testApi();
    const outside = path.join(path.dirname(api.workspace), "outside.txt");
    fs.writeFileSync(outside, "outside\n");
    const dangling = path.join(path.dirname(api.workspace), "created-through-link.txt");
    for (const target of [outside, dangling]) {
      const { id, planPath } = await planned([call("exit_plan_mode", { plan: "# Plan\n\n1. step\n" })], (p) =>
        fs.symlinkSync(target, p),
      );
      expect((await settle(api, id)).status).toBe("awaiting_review");
      expect(fs.lstatSync(planPath).isSymbolicLink()).toBe(false);
      expect(fs.readFileSync(planPath, "utf8")).toBe("# Plan\n\n1. step\n");
    }
    expect(fs.readFileSync(outside, "utf8")).toBe("outside\n");
    expect(fs.existsSync(dangling)).toBe(false);
  });

  it("exit_plan_mode without a plan argument does not read a linked secret as the plan", async () => {
    api = testApi();
    const secret = path.join(path.dirname(api.workspace), "secret.txt");
    fs.writeFileSync(secret, "# Secret\n\n1. the database password is hunter2\n");
    const { id } = await planned([call("exit_plan_mode"), { text: "done" }], (p) => fs.symlinkSync(secret, p));
    const { events } = await settle(api, id);
    expect(results(events)[0]?.error).toContain("is a link");
    expect(JSON.stringify(events)).not.toContain("hunter2");
  });

  it("a hard link at the plan path to a source file: the plan write gets a fresh file, the source keeps its text", async () => {
    api = testApi();
    const source = path.join(api.workspace, "src/todo.ts");
    const { id, planPath } = await planned([call("exit_plan_mode", { plan: "# Plan\n\n1. step\n" })], (p) =>
      fs.linkSync(source, p),
    );
    expect((await settle(api, id)).status).toBe("awaiting_review");
    expect(fs.readFileSync(source, "utf8")).toBe(SOURCE);
    expect(fs.statSync(planPath).nlink).toBe(1);
  });

  it("a plans folder that is a link (to src): the plan write is refused, src is unchanged", async () => {
    api = testApi();
    const { id } = await planned([call("exit_plan_mode", { plan: "# Plan\n\n1. step\n" }), { text: "done" }], (p) => {
      fs.rmSync(path.dirname(p), { recursive: true, force: true });
      fs.symlinkSync(path.join(api.workspace, "src"), path.dirname(p));
    });
    const { events } = await settle(api, id);
    expect(results(events)[0]?.error).toContain("is a link");
    expect(fs.readdirSync(path.join(api.workspace, "src"))).toEqual(["todo.ts"]);
  });

  it("slugs carry far more than 552 combinations: 200 sessions never share one", async () => {
    api = testApi();
    const slugs = new Set<string>();
    for (let i = 0; i < 200; i++)
      slugs.add(
        (await api.call("POST", "/api/sessions", { workspace: api.workspace, mode: "plan" })).body.session.planSlug,
      );
    expect(slugs.size).toBe(200);
  });
});

describe("the workspace is checked again at every tool call", () => {
  it("a workspace swapped for a link to a folder outside the roots gets no writes", async () => {
    api = testApi();
    const outside = fs.mkdtempSync(path.join(path.dirname(path.dirname(api.workspace)), "plangate-swap-"));
    try {
      const id = await startScripted(api, [call("write", { path: "new.txt", content: "x\n" }), { text: "done" }], {
        mode: "acceptEdits",
      });
      fs.renameSync(api.workspace, `${api.workspace}-moved`);
      fs.symlinkSync(outside, api.workspace);
      await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
      const { events } = await settle(api, id);
      expect(results(events)[0]?.error).toMatch(/outside the allowed roots|resolves elsewhere/);
      expect(fs.readdirSync(outside)).toEqual([]);
    } finally {
      fs.rmSync(api.workspace, { force: true });
      fs.renameSync(`${api.workspace}-moved`, api.workspace);
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("the roots folder itself is not a workspace", async () => {
    api = testApi();
    const res = await api.call("POST", "/api/sessions", { workspace: path.dirname(api.workspace) });
    expect([res.status, res.body.error.message]).toEqual([400, expect.stringContaining("allowed root itself")]);
  });
});
