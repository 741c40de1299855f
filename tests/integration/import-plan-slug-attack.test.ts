import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { awaitReview, call, settle, startScripted, testApi, type Api } from "../helpers/api";
import { signedInCookie } from "../helpers/people";
import { exitWith } from "../helpers/plan-kit";

/*
 * Adversary: "plan file paths come from the workspace and the slug, never from the file" — but the slug does come
 * from the file, so an import can name another session's plan slug. Slugs carry 49 random bits so that nobody can
 * aim at a plan file in advance; a member simply reads the victim session's state and imports a log with the same
 * slug. The imported session's plan file is then the victim's, and its agent writes it without asking (in plan
 * mode the own plan file is the one file it may change; it is never a control file). The victim's next
 * exit_plan_mode submits the member's text as its plan.
 */
let api: Api;
afterEach(async () => {
  await api?.close();
});

type Exported = { events: { seq: number; type: string; payload: Record<string, unknown>; at?: string }[] };

describe("an import cannot take another session's plan file", () => {
  it("a member imports a log naming a reviewer's plan slug; her agent overwrites the reviewer's plan", async () => {
    api = testApi();
    const rob = await signedInCookie(api.t.db, "rob@example.com", [{ root: "/", role: "reviewer" }]);
    const mia = await signedInCookie(api.t.db, "mia@example.com", [{ root: "/", role: "member" }]);
    const ORIGINAL = "# Plan\n\n1. Add input validation to src/todo.ts.\n";
    // Rob's session plans; its plan file holds his plan, waiting for his review.
    const robs = await api.call(
      "POST",
      "/api/sessions",
      { workspace: api.workspace, model: "scripted", mode: "plan", script: [exitWith(ORIGINAL), { text: "ok" }] },
      { cookie: rob.cookie },
    );
    const robId = robs.body.session.id as string;
    await api.call("POST", `/api/sessions/${robId}/messages`, { text: "plan validation" }, { cookie: rob.cookie });
    await awaitReview(api, robId);
    // Mia may read Rob's session (every role reads): its plan slug names its plan file.
    const seen = await api.call("GET", `/api/sessions/${robId}`, undefined, { cookie: mia.cookie });
    const robSlug = seen.body.session.planSlug as string;
    const robPlan = path.join(api.workspace, ".plangate", "plans", `${robSlug}.md`);
    expect(fs.readFileSync(robPlan, "utf8")).toBe(ORIGINAL);

    // Mia's log: any plan-mode session of hers, its plan.created slug replaced by Rob's.
    const base = await startScripted(
      api,
      [
        { text: "planning" },
        call("write", { path: robPlan, content: "# Plan\n\n1. Disable input validation.\n" }),
        { text: "done" },
      ],
      { mode: "plan" },
    );
    await api.call("POST", `/api/sessions/${base}/messages`, { text: "hi" });
    await settle(api, base);
    expect(fs.readFileSync(robPlan, "utf8")).toBe(ORIGINAL);
    const file = (await api.call("GET", `/api/sessions/${base}/export?format=json`)).body as Exported;
    for (const e of file.events) {
      if (e.type === "plan.created") e.payload.slug = robSlug;
      if (e.type === "session.created") e.payload.planSlug = robSlug;
    }
    const imported = await api.call("POST", "/api/sessions/import", file, { cookie: mia.cookie });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const id = imported.body.session.id as string;
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "go on" }, { cookie: mia.cookie });
    await settle(api, id);
    expect(fs.readFileSync(robPlan, "utf8")).toBe(ORIGINAL);
  });
});
