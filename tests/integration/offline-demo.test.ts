import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { settle, testApi, type Api } from "../helpers/api";
import { waitFor } from "../helpers/plan-kit";
import { SAMPLE_FILES } from "../../lib/workspace/ensure-sample-workspace";

/* A newcomer's first session with the offline demo model: plan, review with comments, revision, approval, a verified plan. */
let api: Api;
afterEach(async () => {
  await api?.close();
});

describe("the offline demo model shows the real loop", () => {
  it("plans from the request, revises from the feedback and a line comment, carries the plan out, and passes its own verification", async () => {
    api = testApi();
    const created = await api.call("POST", "/api/sessions", {
      workspace: api.workspace,
      model: "offline",
      mode: "plan",
    });
    const id = created.body.session.id as string;
    await api.call("POST", `/api/sessions/${id}/messages`, { text: "Add a done flag to the todos" });
    expect((await settle(api, id)).status).toBe("awaiting_review");
    let review = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id as string;
    const v1 = (await api.call("GET", `/api/reviews/${review}`)).body.plan.markdown as string;
    expect(v1).toContain("# Plan: Add a done flag to the todos");
    expect(v1).toMatch(/## Context\n- Read `src\/todo.ts`/);
    const lines = v1.split("\n");
    const commented = lines.findIndex((l) => l.startsWith("2. ")) + 1;
    await api.call("POST", `/api/reviews/${review}/decision`, {
      decision: "reject",
      feedback: "Mention the default value false.",
      comments: [{ lineStart: commented, lineEnd: commented, body: "keep it short" }],
    });

    expect((await settle(api, id)).status).toBe("awaiting_review");
    review = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id as string;
    const v2 = (await api.call("GET", `/api/reviews/${review}`)).body.plan.markdown as string;
    expect(v2).toContain("3. Address the review in PLANGATE-NOTES.md: Mention the default value false.");
    expect(v2).toContain("(review: keep it short)");
    expect(v2).not.toContain("The user did not approve");

    await api.call("POST", `/api/reviews/${review}/decision`, { decision: "approve", mode: "acceptEdits" });
    const verification = await waitFor(
      "the verification",
      async () => (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications[0],
      20_000,
    );
    expect(verification.report.status).toBe("pass");
    expect(fs.readFileSync(path.join(api.workspace, "PLANGATE-NOTES.md"), "utf8")).toContain(
      "Mention the default value false.",
    );
  });
});

/** One session of the demo on the request: planned, approved, carried out; its plan and its verification. */
async function demoSession(request: string): Promise<{ plan: string; status: string; reply: string }> {
  const created = await api.call("POST", "/api/sessions", { workspace: api.workspace, model: "offline", mode: "plan" });
  const id = created.body.session.id as string;
  await api.call("POST", `/api/sessions/${id}/messages`, { text: request });
  expect((await settle(api, id)).status).toBe("awaiting_review");
  const review = (await api.call("GET", `/api/reviews?status=pending&sessionId=${id}`)).body.reviews[0].id as string;
  const plan = (await api.call("GET", `/api/reviews/${review}`)).body.plan.markdown as string;
  await api.call("POST", `/api/reviews/${review}/decision`, { decision: "approve", mode: "acceptEdits" });
  const verification = await waitFor(
    "the verification",
    async () => (await api.call("GET", `/api/sessions/${id}/verify`)).body.verifications[0],
    20_000,
  );
  const { events } = await settle(api, id);
  const reply = String(events.filter((e) => e.type === "message.assistant").at(-1)?.payload.text ?? "");
  return { plan, status: verification.report.status, reply };
}

describe("the offline demo plans what was asked, in the sample project, session after session", () => {
  it("each kind of request plans its own change from what it read and passes its own verification; others are said to be outside it", async () => {
    api = testApi({ files: SAMPLE_FILES });
    const read = (p: string) => fs.readFileSync(path.join(api.workspace, p), "utf8");
    const cases: [string, RegExp, () => void][] = [
      [
        "Add a function countDone to src/todo.ts that counts the done todos",
        /1\. Add the function `countDone` to `src\/todo.ts`/,
        () =>
          expect(read("src/todo.ts")).toMatch(
            /export function countDone\(\)[\s\S]*export function addTodo|export function addTodo[\s\S]*export function countDone/,
          ),
      ],
      [
        "Rename the function listTodos to allTodos",
        /1\. Rename `listTodos` to `allTodos` in `src\/todo.ts`/,
        () => expect(read("src/todo.ts")).toContain("export function allTodos(): Todo[]"),
      ],
      [
        "Add a test for the todo store",
        /1\. Add a test for todo in `test\/todo.test.mjs`/,
        () => expect(read("test/todo.test.mjs")).toContain('import { test } from "node:test"'),
      ],
      [
        "Add an endpoint /health that says the service is up",
        /1\. Add the endpoint GET \/health in `src\/routes\/health.ts`/,
        () => expect(read("src/routes/health.ts")).toContain('req.url !== "/health"'),
      ],
      [
        "Document how to run the server",
        /1\. Document it in `README.md`: Document how to run the server/,
        () => expect(read("README.md")).toMatch(/^# Sample project[\s\S]*## Document how to run the server/),
      ],
      [
        "Create docs/setup.md",
        /Document it in `docs\/setup.md`|Create `docs\/setup.md`/,
        () => expect(fs.existsSync(path.join(api.workspace, "docs/setup.md"))).toBe(true),
      ],
      [
        "Make the todos faster",
        /carries out only these kinds of request/,
        () => expect(read("PLANGATE-NOTES.md")).toContain("Make the todos faster"),
      ],
      // The same request again: the notes keep the first session's and the file still changes, so it passes too.
      [
        "Make the todos faster",
        /Write PLANGATE-NOTES.md recording the task/,
        () => expect(read("PLANGATE-NOTES.md").match(/Task: Make the todos faster/g)).toHaveLength(2),
      ],
    ];
    for (const [request, planned, changed] of cases) {
      const { plan, status, reply } = await demoSession(request);
      expect(plan, request).toMatch(planned);
      expect(status, `${request}\n${plan}`).toBe("pass");
      changed();
      if (planned.source.includes("only these kinds")) expect(reply).toContain("not one I can carry out");
    }
  });
});
